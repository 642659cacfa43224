import { randomUUID } from "node:crypto";
import pg from "pg";
import { listenChannel } from "./pg-listen.js";

/** The channel instances share events on. */
export const RELAY_CHANNEL = "agent_session_events";

/** NOTIFY payloads are capped at 8000 bytes; larger events go by reference to agent_event_payloads. */
const MAX_INLINE_BYTES = 7000;
/** How long a large event's row is kept for the instances to fetch it. */
const PAYLOAD_KEEP_SECONDS = 300;

export interface RelayedEvents<E> {
	/** Called for every event of this instance (to be sent to the others). */
	subscribe(listener: (event: E) => void): () => void;
	/** Hands an event from another instance to this one's listeners (WebSocket clients). */
	emit(event: E): void;
}

export interface EventRelay {
	/** This instance's id in the relay. */
	readonly instance: string;
	close(): Promise<void>;
}

/**
 * Shares events between server instances over one database (LISTEN/NOTIFY): every event of this
 * instance is published; every event of another instance is emitted here, so a WebSocket client
 * sees a session's events whichever instance runs its turn. A dedicated connection listens; if it
 * drops (database restart), it reconnects, and events published meanwhile are lost (clients
 * re-read records on reconnect, as they do after any gap). Events are delivered in the order each
 * instance published them.
 */
export async function startEventRelay<E>(url: string, events: RelayedEvents<E>): Promise<EventRelay> {
	const instance = randomUUID();
	const publisher = new pg.Pool({ connectionString: url, max: 2, allowExitOnIdle: true });
	publisher.on("error", () => undefined);
	publisher.on("connect", (client) => client.on("error", () => undefined));
	let relaying = false;
	let closed = false;
	let sending: Promise<void> = Promise.resolve();

	const deliver = async (text: string) => {
		let message: { origin: string; event?: E; ref?: string };
		try {
			message = JSON.parse(text) as typeof message;
		} catch {
			return;
		}
		if (message.origin === instance) return;
		let event = message.event;
		if (event === undefined && message.ref !== undefined) {
			const { rows } = await publisher.query<{ body: string }>("SELECT body FROM agent_event_payloads WHERE id = $1", [
				message.ref,
			]);
			if (rows[0]) event = JSON.parse(rows[0].body) as E;
		}
		if (event === undefined) return;
		relaying = true;
		try {
			events.emit(event);
		} finally {
			relaying = false;
		}
	};
	const listener = await listenChannel(url, RELAY_CHANNEL, (payload) => void deliver(payload).catch(() => undefined));

	const publish = async (event: E) => {
		const body = JSON.stringify(event);
		let payload = JSON.stringify({ origin: instance, event });
		if (Buffer.byteLength(payload) > MAX_INLINE_BYTES) {
			const { rows } = await publisher.query<{ id: string }>(
				"INSERT INTO agent_event_payloads (body) VALUES ($1) RETURNING id",
				[body],
			);
			payload = JSON.stringify({ origin: instance, ref: rows[0]?.id });
			await publisher.query(
				`DELETE FROM agent_event_payloads WHERE created_at < now() - interval '${PAYLOAD_KEEP_SECONDS} seconds'`,
			);
		}
		await publisher.query("SELECT pg_notify($1, $2)", [RELAY_CHANNEL, payload]);
	};
	const unsubscribe = events.subscribe((event) => {
		if (relaying || closed) return;
		// One at a time, in order: the others see this instance's events in the order they happened.
		sending = sending.then(() => publish(event)).catch(() => undefined);
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
