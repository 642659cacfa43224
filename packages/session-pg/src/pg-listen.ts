import pg from "pg";

/** A LISTEN on one channel (pg-listen.ts). */
export interface ChannelListener {
	close(): Promise<void>;
}

/**
 * LISTENs on `channel` over a dedicated connection and hands every payload to `onPayload`. When
 * the connection drops (a database restart), it connects again after a moment; notifications
 * sent meanwhile are lost, which callers make good by reading again (they re-read on reconnect,
 * as after any gap). Resolves after the first attempt, connected or not.
 */
export async function listenChannel(
	url: string,
	channel: string,
	onPayload: (payload: string) => void,
): Promise<ChannelListener> {
	let closed = false;
	let client: pg.Client | undefined;
	const listen = async (): Promise<void> => {
		const next = new pg.Client({ connectionString: url });
		next.on("notification", (notification) => {
			if (notification.channel === channel && notification.payload) onPayload(notification.payload);
		});
		next.on("error", () => undefined);
		next.on("end", () => {
			if (closed) return;
			client = undefined;
			setTimeout(() => void listen().catch(() => undefined), 500).unref();
		});
		try {
			await next.connect();
			await next.query(`LISTEN ${channel}`);
			client = next;
			if (closed) await next.end().catch(() => undefined);
		} catch {
			await next.end().catch(() => undefined);
		}
	};
	await listen();
	return {
		async close() {
			closed = true;
			await client?.end().catch(() => undefined);
		},
	};
}
