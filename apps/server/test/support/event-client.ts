import WebSocket from "ws";

/** A WebSocket client that records every JSON message and lets tests wait for one. */
export class EventClient {
	readonly messages: Array<Record<string, unknown> & { type: string }> = [];
	private waiters: Array<{ predicate: (message: { type: string }) => boolean; resolve: () => void }> = [];

	private constructor(readonly socket: WebSocket) {
		socket.on("message", (data) => {
			const message = JSON.parse(String(data)) as { type: string };
			this.messages.push(message as Record<string, unknown> & { type: string });
			this.waiters = this.waiters.filter((waiter) => {
				if (!waiter.predicate(message)) return true;
				waiter.resolve();
				return false;
			});
		});
	}

	/** Connects and resolves once the server confirmed the subscription. */
	static async connect(url: string, options: { protocols?: string[]; headers?: Record<string, string> } = {}) {
		const socket = new WebSocket(url, options.protocols ?? ["agent-sessions.v1"], { headers: options.headers ?? {} });
		const client = new EventClient(socket);
		await new Promise<void>((resolve, reject) => {
			socket.once("error", reject);
			socket.once("unexpected-response", (_request, response) =>
				reject(new Error(`unexpected response ${response.statusCode}`)),
			);
			client.waitFor((message) => message.type === "subscribed").then(resolve, reject);
		});
		return client;
	}

	/** Resolves when a message matching `predicate` has arrived (already or later); rejects after timeoutMs. */
	waitFor(predicate: (message: { type: string } & Record<string, unknown>) => boolean, timeoutMs = 10_000) {
		if (this.messages.some(predicate)) return Promise.resolve();
		return new Promise<void>((resolve, reject) => {
			const timer = setTimeout(() => reject(new Error("timed out waiting for a WebSocket message")), timeoutMs);
			this.waiters.push({
				predicate: predicate as (message: { type: string }) => boolean,
				resolve: () => {
					clearTimeout(timer);
					resolve();
				},
			});
		});
	}

	ofType(type: string) {
		return this.messages.filter((message) => message.type === type);
	}

	close(): Promise<void> {
		if (this.socket.readyState === WebSocket.CLOSED) return Promise.resolve();
		return new Promise((resolve) => {
			this.socket.once("close", () => resolve());
			this.socket.close();
		});
	}
}

/** The HTTP status a WebSocket upgrade was refused with. */
export function upgradeStatus(url: string, options: { protocols?: string[]; headers?: Record<string, string> } = {}) {
	return new Promise<number>((resolve, reject) => {
		const socket = new WebSocket(url, options.protocols ?? ["agent-sessions.v1"], { headers: options.headers ?? {} });
		socket.once("unexpected-response", (_request, response) => {
			resolve(response.statusCode ?? 0);
			socket.terminate();
		});
		socket.once("open", () => {
			resolve(101);
			socket.close();
		});
		socket.once("error", reject);
	});
}
