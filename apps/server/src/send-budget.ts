import { headOf } from "@agent/session-format";
import type { WebSocket } from "ws";

/** The close code of a socket dropped for falling behind: reconnect, then reload what may have been missed. */
export const SLOW_READER_CLOSE = 4008;
/** A dropped socket gets this long to take its backlog and the close frame before it is cut. */
const CLOSE_GRACE_MS = 5000;

export interface SendBudgetOptions {
	/** One socket may have this many bytes queued, counting the message about to be queued (default 8 MiB). */
	perSocketBytes?: number;
	/** All sockets together may hold this many bytes of distinct messages not yet sent (default 64 MiB). */
	totalBytes?: number;
}

interface SocketState {
	/** Messages queued on this socket and not yet handed to the kernel, oldest first. */
	queue: Buffer[];
	released: boolean;
}

/**
 * Bounds the memory that slow WebSocket readers can pin. A message is serialized once and the same
 * buffer is queued on every socket, so memory is counted per distinct buffer until every socket
 * that queued it has sent it. Two limits:
 * - per socket: its queued bytes plus the message about to be queued may not pass `perSocketBytes`
 *   (a socket with nothing queued always takes one message, however large);
 * - in all: distinct queued bytes plus a new message may not pass `totalBytes`; over it, the
 *   sockets furthest behind are dropped first until the message fits.
 * A dropped socket is closed with SLOW_READER_CLOSE and cut 5 s later if it has not taken its
 * backlog by then; its messages stop counting at once.
 */
export class SendBudget {
	private readonly perSocket: number;
	private readonly total: number;
	private readonly sockets = new Map<WebSocket, SocketState>();
	private readonly holders = new Map<Buffer, number>();
	private held = 0;
	private droppedCount = 0;

	constructor(options: SendBudgetOptions = {}) {
		this.perSocket = options.perSocketBytes ?? 8 * 1024 * 1024;
		this.total = options.totalBytes ?? 64 * 1024 * 1024;
	}

	/** Distinct bytes queued on sockets and not yet sent. */
	get heldBytes(): number {
		return this.held;
	}

	/** Sockets dropped for falling behind since the server started. */
	get dropped(): number {
		return this.droppedCount;
	}

	track(ws: WebSocket): void {
		this.sockets.set(ws, { queue: [], released: false });
		ws.once("close", () => this.release(ws));
	}

	/** Queues `message` (a JSON text) on `ws`, or drops the socket when the budget says so. */
	send(ws: WebSocket, message: Buffer): void {
		const state = this.sockets.get(ws);
		if (!state || state.released || ws.readyState !== ws.OPEN) return;
		const queued = ws.bufferedAmount;
		if (queued > 0 && queued + message.length > this.perSocket) {
			this.drop(ws, `fell more than ${this.perSocket} bytes behind`);
			return;
		}
		const added = this.holders.has(message) ? 0 : message.length;
		if (this.held + added > this.total && !this.makeRoom(added)) {
			this.drop(ws, "the server's send budget is spent on readers further behind");
			return;
		}
		if (state.released) return;
		this.holders.set(message, (this.holders.get(message) ?? 0) + 1);
		this.held += added;
		state.queue.push(message);
		ws.send(message, { binary: false }, () => this.sent(state, message));
	}

	/** Drops the sockets furthest behind until `added` more bytes fit; false when they cannot. */
	private makeRoom(added: number): boolean {
		const behind = [...this.sockets.entries()]
			.filter(([, state]) => !state.released && state.queue.length > 0)
			.sort(([a], [b]) => b.bufferedAmount - a.bufferedAmount);
		for (const [ws] of behind) {
			if (this.held + added <= this.total) break;
			this.drop(ws, "fell furthest behind while the server's send budget was spent");
		}
		// Nobody is behind any more: a message larger than the whole budget still goes out, once.
		return this.held + added <= this.total || this.held === 0;
	}

	private sent(state: SocketState, message: Buffer): void {
		if (state.released) return;
		const index = state.queue.indexOf(message);
		if (index >= 0) state.queue.splice(index, 1);
		this.unhold(message);
	}

	private drop(ws: WebSocket, reason: string): void {
		this.droppedCount++;
		this.release(ws);
		ws.close(SLOW_READER_CLOSE, headOf(reason, 120));
		setTimeout(() => ws.terminate(), CLOSE_GRACE_MS).unref();
	}

	private release(ws: WebSocket): void {
		const state = this.sockets.get(ws);
		if (!state || state.released) return;
		state.released = true;
		for (const message of state.queue) this.unhold(message);
		state.queue = [];
		this.sockets.delete(ws);
	}

	private unhold(message: Buffer): void {
		const holders = (this.holders.get(message) ?? 0) - 1;
		if (holders > 0) {
			this.holders.set(message, holders);
			return;
		}
		this.holders.delete(message);
		this.held -= message.length;
	}
}
