import { PgSessionStore, startEventRelay } from "@agent/session-pg";
import type { SessionEvent } from "./events.js";
import type { AgentSessions } from "./runtime.js";

/** What a server instance shares with the other instances on its store. */
export interface InstanceLink {
	/**
	 * Claims a tick of a scheduled job for this instance: true for exactly one instance per job
	 * and tick. Absent on a store only one process serves (the file store): every tick is ours.
	 */
	claimTick?: (jobId: string, tick: Date) => Promise<boolean>;
	close(): Promise<void>;
}

/**
 * Joins the other instances serving the same store. On PostgreSQL: this runtime's events are
 * published to the others and theirs emitted here (LISTEN/NOTIFY), so WebSocket clients on any
 * instance see every turn; and job ticks are claimed so each runs once. Turns of one session
 * never interleave across instances without this: the store's lease does that. On the file store
 * there is nothing to join.
 */
export async function joinInstances(runtime: AgentSessions): Promise<InstanceLink> {
	const store = runtime.store;
	const url = store instanceof PgSessionStore ? store.connectionString : undefined;
	if (!(store instanceof PgSessionStore) || url === undefined) return { close: async () => {} };
	const relay = await startEventRelay<SessionEvent>(url, {
		subscribe: (listener) => runtime.events.subscribe(listener),
		emit: (event) => runtime.events.emit(event, { relayed: true }),
		// The streamed pieces of one reply that wait for the same NOTIFY travel as one piece.
		merge: (earlier, later) =>
			earlier.type === "turn.delta" &&
			later.type === "turn.delta" &&
			earlier.turnId === later.turnId &&
			earlier.sessionId === later.sessionId &&
			earlier.kind === later.kind
				? { ...earlier, delta: earlier.delta + later.delta }
				: undefined,
	});
	return {
		claimTick: (jobId, tick) => store.claimJobTick(jobId, tick, relay.instance),
		close: () => relay.close(),
	};
}
