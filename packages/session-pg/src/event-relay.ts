import { randomUUID } from "node:crypto";
import type { EventRelay, RelayedEvents } from "@agent/session-format";
import pg from "pg";
import { listenChannel } from "./pg-listen.js";

export type { EventRelay, RelayedEvents } from "@agent/session-format";

/** The channel instances share events on. */
export const RELAY_CHANNEL = "agent_session_events";

/** NOTIFY payloads are capped at 8000 bytes; larger events go by reference to agent_event_payloads. */
const MAX_INLINE_BYTES = 7000;
/** How long a large event's row is kept for the instances to fetch it. */
const PAYLOAD_KEEP_SECONDS = 300;

/**
 * Shares events between server instances over one database (LISTEN/NOTIFY): every event of this
 * instance is published; every event of another instance is emitted here, so a WebSocket client
 * sees a session's events whichever instance runs its turn. A dedicated connection listens; if it
 * drops (database restart), it reconnects, and events published meanwhile are lost (clients
 * re-read records on reconnect, as they do after any gap). Events are delivered in the order each
 * instance published them. Events are sent in batches: all those that happened while the previous
 * NOTIFY was in flight go in the next (as many as its 8000 bytes hold). One NOTIFY per event (a
 * turn's streamed deltas each one) made the relay, not the store, what two instances spent most of
 * a turn on.
 */
export async function startEventRelay<E>(url: string, events: RelayedEvents<E>): Promise<EventRelay> {
	const instance = randomUUID();
	const publisher = new pg.Pool({ connectionString: url, max: 2, allowExitOnIdle: true });
	publisher.on("error", () => undefined);
	publisher.on("connect", (client) => client.on("error", () => undefined));
	let relaying = false;
	let closed = false;
	let sending: Promise<void> = Promise.resolve();
	const pending: E[] = [];
	let scheduled = false;
	// Messages are handled one at a time, in the order they came: a referenced one waits for its row.
	let delivering: Promise<void> = Promise.resolve();

	const deliver = async (text: string) => {
		let message: { origin: string; event?: E; events?: E[]; ref?: string };
		try {
			message = JSON.parse(text) as typeof message;
		} catch {
			return;
		}
		if (message.origin === instance) return;
		let batch = message.events ?? (message.event === undefined ? undefined : [message.event]);
		if (batch === undefined && message.ref !== undefined) {
			const { rows } = await publisher.query<{ body: string }>("SELECT body FROM agent_event_payloads WHERE id = $1", [
				message.ref,
			]);
			const body = rows[0] ? (JSON.parse(rows[0].body) as E | E[]) : undefined;
			batch = body === undefined ? undefined : Array.isArray(body) ? body : [body];
		}
		if (batch === undefined) return;
		relaying = true;
		try {
			for (const event of batch) events.emit(event);
		} finally {
			relaying = false;
		}
	};
	const listener = await listenChannel(url, RELAY_CHANNEL, (payload) => {
		delivering = delivering.then(() => deliver(payload)).catch(() => undefined);
	});

	/** One NOTIFY: `batch` inline when it fits, else by reference to a row holding it. */
	const publish = async (batch: E[]) => {
		let payload = JSON.stringify({ origin: instance, events: batch });
		if (Buffer.byteLength(payload) > MAX_INLINE_BYTES) {
			const { rows } = await publisher.query<{ id: string }>(
				"INSERT INTO agent_event_payloads (body) VALUES ($1) RETURNING id",
				[JSON.stringify(batch)],
			);
			payload = JSON.stringify({ origin: instance, ref: rows[0]?.id });
			await publisher.query(
				`DELETE FROM agent_event_payloads WHERE created_at < now() - interval '${PAYLOAD_KEEP_SECONDS} seconds'`,
			);
		}
		await publisher.query("SELECT pg_notify($1, $2)", [RELAY_CHANNEL, payload]);
	};
	/** Sends what is pending, in order, in as few NOTIFYs as fit: events that fit inline go together. */
	const flush = async () => {
		while (pending.length > 0) {
			const batch: E[] = [];
			let bytes = 0;
			while (pending.length > 0) {
				const size = Buffer.byteLength(JSON.stringify(pending[0]));
				if (batch.length > 0 && bytes + size > MAX_INLINE_BYTES - 200) break;
				batch.push(pending.shift() as E);
				bytes += size + 1;
			}
			await publish(batch);
		}
	};
	const unsubscribe = events.subscribe((event) => {
		if (relaying || closed) return;
		// In order: the others see this instance's events in the order they happened. A flush already
		// queued takes this event along; one that failed (the database away) leaves the rest for the next.
		const last = pending[pending.length - 1];
		const merged = last === undefined ? undefined : events.merge?.(last, event);
		if (merged !== undefined) pending[pending.length - 1] = merged;
		else pending.push(event);
		if (scheduled) return;
		scheduled = true;
		sending = sending
			.then(() => {
				scheduled = false;
				return flush();
			})
			.catch(() => undefined);
	});

	return {
		instance,
		async close() {
			closed = true;
			unsubscribe();
			await sending;
			await listener.close();
			await publisher.end().catch(() => undefined);
		},
	};
}
