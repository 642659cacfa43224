import type { CreateSessionOptions, SessionStore } from "@agent/session-format/reading";
import type { Agent } from "@mariozechner/pi-agent-core";
import { agentMessagesOf, recordOf } from "./agent-messages.js";
import { invalidArgument } from "./errors.js";
import { RunWriter, type Seen, seenAfter } from "./run-writer.js";

export interface PersistAgentOptions {
	/** Any store: `createFileStore()` from @agent/session-fs, `openPgStore()` from @agent/session-pg. */
	store: SessionStore;
	/** A session to resume: its messages replace the agent's. Without it, a new session is created. */
	sessionId?: string;
	/** How a new session is created (name, identity key...); its model defaults to the agent's. */
	create?: CreateSessionOptions;
	/** How long a run waits for another writer's lease when it starts, in ms (default: the store's). */
	waitMs?: number;
}

export interface PersistedAgent {
	readonly sessionId: string;
	/** Loads the session's messages into the agent again (after another writer, a compaction, a branch). */
	reload(): Promise<void>;
	/** Stops persisting, once the run in progress (if any) has ended. */
	dispose(): Promise<void>;
}

/** The agents persisted now: a second persistAgent on one of them would write every message twice. */
const persisted = new WeakSet<Agent>();

/**
 * Persists a pi `Agent` in a session: loads the session's context into `agent.state.messages`
 * (or starts a new session with the messages the agent has), then appends every message of every
 * run under the session's lease as it ends, and closes each run with a `turn` record. A run that
 * finds the session moved by someone else fails before it writes (reload() and prompt again).
 */
export async function persistAgent(agent: Agent, options: PersistAgentOptions): Promise<PersistedAgent> {
	if (typeof agent?.subscribe !== "function") throw invalidArgument("persistAgent(agent, ...) needs a pi Agent");
	if (!options?.store) throw invalidArgument("persistAgent(agent, { store }) needs a store, e.g. createFileStore()");
	if (agent.state.isStreaming) {
		throw invalidArgument("persistAgent(agent) while the agent is running; call it when it is idle");
	}
	if (persisted.has(agent)) {
		throw invalidArgument("this agent is persisted already; dispose() that first (one session per agent at a time)");
	}
	const { store } = options;

	const load = async (id: string): Promise<Seen> => {
		const opened = await store.open(id);
		agent.state.messages = agentMessagesOf(opened, agent.state.model);
		return { lastSeq: opened.metadata.lastSeq, leafSeq: opened.context.leafSeq };
	};

	let sessionId: string;
	let seen: Seen;
	if (options.sessionId !== undefined) {
		sessionId = options.sessionId;
		seen = await load(sessionId);
	} else {
		const model = agent.state.model;
		const known = model.id !== "unknown" ? { model: `${model.provider}/${model.id}` } : {};
		sessionId = (await store.create({ ...known, ...options.create })).id;
		seen = { lastSeq: 0, leafSeq: null };
		if (agent.state.messages.length > 0) {
			seen = seenAfter(await store.append(sessionId, agent.state.messages.map(recordOf)), seen);
		}
	}

	const writer = new RunWriter(agent, store, sessionId, options.waitMs, seen);
	const unsubscribe = agent.subscribe((event) => writer.on(event));
	persisted.add(agent);
	// Providers with prompt caches key them by this; the session's id is the natural one.
	agent.sessionId ??= sessionId;
	return {
		sessionId,
		async reload() {
			if (agent.state.isStreaming) throw invalidArgument("reload() while the agent is running; wait for it to be idle");
			writer.seen = await load(sessionId);
		},
		async dispose() {
			await agent.waitForIdle();
			unsubscribe();
			persisted.delete(agent);
		},
	};
}
