import { oversizedBlockTokens } from "@agent/compaction";
import type { OpenOptions, SessionStore } from "@agent/session-format/reading";
import { resolveHome } from "@agent/session-fs";
import type { AgentConfig } from "./config.js";
import { loadConfig } from "./config-load.js";
import { defaultModelIn, type ModelRegistry } from "./model-names.js";
import { loadModelRegistry } from "./model-registry.js";
import { modelWindows } from "./model-windows.js";
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

/**
 * modelContextOf with the settings a runtime at `home` would use (its config.yaml, pi-ai's
 * registry), without a runtime: for a reader that must not load the LLM stack, such as
 * `agent-sessions context`, which then starts in a fraction of the time. The model's window
 * comes from the windows kept in `home`'s cache (model-windows.ts); pi-ai's registry is loaded
 * only when they are not there yet, or for a session that records no model.
 */
export async function readModelContext(
	store: SessionStore,
	sessionId: string,
	options: OpenOptions & { home?: string } = {},
): Promise<ModelContext> {
	const { home, ...open } = options;
	const storeHome = resolveHome(home);
	const config = await loadConfig(storeHome);
	let registry: Promise<ModelRegistry> | undefined;
	const loadRegistry = () => {
		registry ??= loadModelRegistry();
		return registry;
	};
	const windows = modelWindows(storeHome, loadRegistry);
	const settings: ModelContextSettings = {
		config,
		defaultModel: async () => defaultModelIn(await loadRegistry(), config.defaultModel, process.env),
		windowOf: (model) => windows.windowOf(model),
	};
	return modelContextOf(store, sessionId, settings, open);
}
