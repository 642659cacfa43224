import type { SessionMetadata, StoreChange, StoreWatcher } from "@agent/session-format";
import { listenChannel } from "./pg-listen.js";
import { EVENTS_CHANNEL } from "./write-tx.js";

/**
 * The PostgreSQL store's `watch`: every committed append is announced on EVENTS_CHANNEL (by
 * whichever process or instance wrote it); this LISTENs and reports the session with its
 * metadata, read once per session however many announcements came while it was being read.
 * A session created without records, or deleted, is not announced: it shows in the next listing.
 */
export async function watchAppends(
	url: string,
	metadataOf: (id: string) => Promise<SessionMetadata>,
	onChange: (change: StoreChange) => void,
): Promise<StoreWatcher> {
	let closed = false;
	const reading = new Map<string, Promise<void>>();
	const again = new Set<string>();
	const report = (id: string): void => {
		if (closed) return;
		if (reading.has(id)) {
			again.add(id);
			return;
		}
		const read = metadataOf(id)
			.then((metadata) => {
				if (!closed) onChange({ type: "changed", sessionId: id, metadata });
			})
			.catch(() => undefined)
			.finally(() => {
				reading.delete(id);
				if (again.delete(id)) report(id);
			});
		reading.set(id, read);
	};
	const listener = await listenChannel(url, EVENTS_CHANNEL, (payload) => {
		try {
			const { id } = JSON.parse(payload) as { id?: unknown };
			if (typeof id === "string") report(id);
		} catch {
			// Not an announcement of ours.
		}
	});
	return {
		async close() {
			closed = true;
			await listener.close();
			await Promise.all(reading.values());
		},
	};
}
