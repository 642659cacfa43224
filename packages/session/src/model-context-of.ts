import { oversizedBlockTokens } from "@agent/compaction";
import type { OpenOptions, SessionStore } from "@agent/session-format/reading";
import type { AgentConfig } from "./config.js";
import { type ModelContext, prunedContext } from "./pruned-context.js";

/** What a model context needs besides the log: the configuration, and the models' windows. */
export interface ModelContextSettings {
	config: Pick<AgentConfig, "compaction" | "pruneToolOutputs">;
	/** The model of a session that records none (the configured default). */
	defaultModel(): string | Promise<string>;
	/** A model's context window; undefined when unknown (then no block is cut). */
	windowOf(model: string): number | undefined | Promise<number | undefined>;
}

/**
 * Exactly what the model would be sent for a session (AgentSessions.modelContext): its context,
 * old tool outputs pruned as configured, blocks too big for its model's window cut to head and tail.
 */
export async function modelContextOf(
	store: SessionStore,
	sessionId: string,
	settings: ModelContextSettings,
	options?: OpenOptions,
): Promise<ModelContext> {
	const opened = await store.open(sessionId, options);
	const metadata = await store.metadata(sessionId);
	const window = await settings.windowOf(metadata.model || (await settings.defaultModel()));
	const maxBlockTokens = oversizedBlockTokens(window, settings.config.compaction.reserveTokens);
	return prunedContext(opened, settings.config.pruneToolOutputs, maxBlockTokens);
}
