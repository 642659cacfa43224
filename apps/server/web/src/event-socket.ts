import type { SessionEvent } from "@agent/session";
import { pageRelative } from "./api.js";

/** What a socket delivers: the runtime's events, after a first `subscribed`. */
export type SocketMessage = SessionEvent | { type: "subscribed"; sessionId?: string };

const PROTOCOL = "agent-sessions.v1";
/** The server drops a socket that fell too far behind with this code; see the server's README. */
const SLOW_READER_CLOSE = 4008;

function base64url(text: string): string {
	const bytes = new TextEncoder().encode(text);
	let binary = "";
	for (const byte of bytes) binary += String.fromCharCode(byte);
	return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/**
 * A WebSocket to one of the server's event feeds that reconnects with backoff after any close it
 * did not ask for (a normal 1000 from this side ends it; the server may drop a slow client, or
 * restart). `onOpen` runs on every (re)connection once the server confirmed the subscription, so
 * callers reload what they may have missed. `shouldReconnect` may veto a reconnection (e.g. the
 * session is gone: 4404, or an upgrade refused with 404).
 */
export class EventSocket {
	private socket: WebSocket | undefined;
	private closed = false;
	private retryMs = 500;
	private timer: ReturnType<typeof setTimeout> | undefined;

	constructor(
		private readonly path: string,
		private readonly handlers: {
			onEvent: (event: SessionEvent) => void;
			onOpen?: () => void;
			onStatus?: (status: "open" | "closed") => void;
			token?: () => string | undefined;
			shouldReconnect?: (code: number) => boolean | Promise<boolean>;
		},
	) {
		this.connect();
	}

	/** Connects now instead of after the backoff (e.g. once a token was entered); no-op when connected. */
	retryNow(): void {
		if (this.closed || this.socket?.readyState === WebSocket.OPEN || this.socket?.readyState === WebSocket.CONNECTING) {
			return;
		}
		if (this.timer) clearTimeout(this.timer);
		this.retryMs = 500;
		this.connect();
	}

	close(): void {
		this.closed = true;
		if (this.timer) clearTimeout(this.timer);
		this.socket?.close(1000);
	}

	private connect(): void {
		const url = pageRelative(this.path);
		url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
		const token = this.handlers.token?.();
		const protocols = token ? [PROTOCOL, `bearer.${base64url(token)}`] : [PROTOCOL];
		const socket = new WebSocket(url, protocols);
		this.socket = socket;
		socket.addEventListener("message", (message) => {
			let parsed: SocketMessage;
			try {
				parsed = JSON.parse(String(message.data)) as SocketMessage;
			} catch {
				return;
			}
			if (parsed.type === "subscribed") {
				this.retryMs = 500;
				this.handlers.onStatus?.("open");
				this.handlers.onOpen?.();
				return;
			}
			this.handlers.onEvent(parsed);
		});
		socket.addEventListener("close", async (event) => {
			if (this.socket !== socket || this.closed) return;
			this.handlers.onStatus?.("closed");
			// 4xxx: the server ended the feed for good (e.g. 4404, the session was deleted), except
			// 4008: this page fell behind and was dropped; reconnect (onOpen reloads what was missed).
			const final = event.code === 1000 || (event.code >= 4000 && event.code !== SLOW_READER_CLOSE);
			const reconnect = !final && (await (this.handlers.shouldReconnect?.(event.code) ?? true));
			if (!reconnect || this.closed) return;
			this.timer = setTimeout(() => this.connect(), this.retryMs);
			this.retryMs = Math.min(this.retryMs * 2, 10_000);
		});
	}
}
