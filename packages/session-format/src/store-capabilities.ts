import { assertSessionId } from "./ids.js";
import type { SessionBackend } from "./session-backend.js";
import { checkAcceptedTurn, checkTurnId } from "./store-args.js";
import type { SessionStore } from "./store-contract.js";

/** The optional members of SessionStore a shell offers when its backend has what they need. */
export type Capabilities = Partial<
	Pick<
		SessionStore,
		| "watch"
		| "noteAcceptedTurn"
		| "acceptedTurns"
		| "forgetAcceptedTurn"
		| "claimJobTick"
		| "pruneJobTicks"
		| "relayEvents"
	>
>;

/** What the capabilities need of the shell (store-shell.ts). */
export interface ShellHooks {
	/** True while `id` is a deferred session, held in memory. */
	deferred(id: string): boolean;
	/** Waits while the deferred session `id` is being written out. */
	settled(id: string): Promise<void>;
	/** `running` (a watch, a relay), closed by the store's close unless it was closed before. */
	holdUntilClosed<T extends { close(): Promise<void> }>(running: T): T;
}

/**
 * The capabilities of a store over `backend`: each one present only where the backend has it,
 * so callers test for the member (`store.relayEvents?.(...)`), never for a class. Arguments are
 * checked here, once for every backend; a deferred session, which keeps nothing before its first
 * reply, notes no turn (there is nothing to recover either).
 */
export function capabilitiesOf(backend: SessionBackend, shell: ShellHooks): Capabilities {
	const capabilities: Capabilities = {};
	if (backend.watch) {
		const watch = backend.watch.bind(backend);
		capabilities.watch = async (onChange) => shell.holdUntilClosed(await watch(onChange));
	}
	const journal = backend.journal;
	if (journal) {
		capabilities.noteAcceptedTurn = async (id, turn) => {
			assertSessionId(id);
			checkAcceptedTurn(turn);
			if (shell.deferred(id)) return;
			await shell.settled(id);
			await journal.note(id, turn);
		};
		capabilities.acceptedTurns = async (id) => {
			assertSessionId(id);
			if (shell.deferred(id)) return [];
			await shell.settled(id);
			return journal.list(id);
		};
		capabilities.forgetAcceptedTurn = async (id, turnId) => {
			assertSessionId(id);
			checkTurnId(turnId);
			if (shell.deferred(id)) return;
			await journal.forget(id, turnId);
		};
	}
	if (backend.claimJobTick) capabilities.claimJobTick = backend.claimJobTick.bind(backend);
	if (backend.pruneJobTicks) capabilities.pruneJobTicks = backend.pruneJobTicks.bind(backend);
	if (backend.relayEvents) {
		const relayEvents = backend.relayEvents.bind(backend);
		capabilities.relayEvents = async (events) => shell.holdUntilClosed(await relayEvents(events));
	}
	return capabilities;
}
