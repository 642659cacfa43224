import type { SessionEvent } from "./events.js";
import type { AgentSessions } from "./runtime.js";

/** What a server instance shares with the other instances on its store. */
export interface InstanceLink {
	/**
	 * Claims a tick of a scheduled job for this instance: true for exactly one instance per job
	 * and tick. Absent on a store only one process serves (the file store): every tick is ours.
	 */
	claimTick?: (jobId: string, tick: Date) => Promise<boolean>;
	/** Deletes tick claims from before `before` (they pile up a row per job and tick); returns how many. */
	pruneJobTicks?: (before: Date) => Promise<number>;
	close(): Promise<void>;
}

/**
 * Joins the other instances serving the same store, through the store's optional capabilities
 * (never its class): its event relay publishes this runtime's events to the others and emits
 * theirs here, so WebSocket clients on any instance see every turn (PostgreSQL: LISTEN/NOTIFY);
 * and its job tick claims make each scheduled job run once. Turns of one session never interleave
 * across instances without this: the store's lease does that. A store without a relay (the file
 * store) has nothing to join.
 */
export async function joinInstances(runtime: AgentSessions): Promise<InstanceLink> {
	const store = runtime.store;
	if (!store.relayEvents) return { close: async () => {} };
	const relay = await store.relayEvents<SessionEvent>({
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
	const claim = store.claimJobTick?.bind(store);
	const prune = store.pruneJobTicks?.bind(store);
	return {
		...(claim ? { claimTick: (jobId: string, tick: Date) => claim(jobId, tick, relay.instance) } : {}),
		...(prune ? { pruneJobTicks: prune } : {}),
		close: () => relay.close(),
	};
}
