import type { SessionEvent } from "@agent/session";
import type { SessionMetadata, StoredRecord } from "@agent/session-format/reading";
import { type Api, ApiError } from "./api.js";
import { EventSocket } from "./event-socket.js";
import { SessionData } from "./session-data.js";

export interface ConnectionHandlers {
	/** The metadata and newest records are in: the session can be drawn. */
	loaded(data: SessionData, metadata: SessionMetadata): void;
	/**
	 * Older records came in the background: called at most once a second while they come (they
	 * change only what is above the view, and the typing stays smooth), at once for the last page
	 * or when `waiting` says a message to show may be among them.
	 */
	older(data: SessionData): void;
	/** True while the view waits for a message that may be in an older page. */
	waiting(): boolean;
	/** Records missed while not subscribed (or after a gap), and the metadata now. */
	caughtUp(added: readonly StoredRecord[], metadata: SessionMetadata): void;
	event(event: SessionEvent): void;
	/** The session does not exist (any more); `text` says why when the reason is known. */
	notFound(text?: string): void;
	failed(message: string): void;
}

/**
 * The open session's link to the server: loads its metadata and newest records (older ones follow
 * in the background) and, at the same time, subscribes to its events. Once subscribed, whatever
 * was appended since the load is fetched, so nothing is missed and nothing waits for the socket.
 * After a reconnection it catches up again; a session that is gone ends the socket instead.
 */
export class SessionConnection {
	data: SessionData | undefined;
	/** Resolves once the socket is subscribed (its events are then never missed). */
	readonly subscribed: Promise<void>;
	/** Resolves once the newest records are drawn (or loading failed). */
	readonly loaded: Promise<void>;
	private readonly socket: EventSocket;
	private closed = false;
	private olderTimer: ReturnType<typeof setTimeout> | undefined;

	constructor(
		private readonly api: Api,
		readonly id: string,
		private readonly handlers: ConnectionHandlers,
	) {
		this.loaded = this.load();
		let subscribed = () => {};
		this.subscribed = new Promise<void>((resolve) => {
			subscribed = resolve;
		});
		this.socket = new EventSocket(`/api/sessions/${id}/events`, {
			token: () => api.token,
			onOpen: () => {
				subscribed();
				void this.loaded.then(() => this.catchUp());
			},
			onEvent: (event) => {
				if (!this.closed) handlers.event(event);
			},
			shouldReconnect: () => this.stillExists(),
		});
	}

	close(): void {
		this.closed = true;
		clearTimeout(this.olderTimer);
		this.socket.close();
		this.data?.stop();
	}

	/** Reconnects at once (after a token was entered). */
	retryNow(): void {
		this.socket.retryNow();
	}

	/** Fetches what this page has not seen: after a (re)subscription, a gap, or a write without its records' events. */
	async catchUp(): Promise<void> {
		const data = this.data;
		if (this.closed || !data) return;
		try {
			const [metadata, added] = await Promise.all([this.api.session(this.id), data.catchUp()]);
			if (!this.closed) this.handlers.caughtUp(added, metadata);
		} catch (error) {
			if (!this.closed && !(error instanceof ApiError && error.status === 404))
				this.handlers.failed((error as Error).message);
		}
	}

	private async load(): Promise<void> {
		try {
			const data = new SessionData(this.api, this.id, () => this.olderCame(data));
			const [metadata] = await Promise.all([this.api.session(this.id), data.loadLatest()]);
			if (this.closed) return data.stop();
			this.data = data;
			this.handlers.loaded(data, metadata);
		} catch (error) {
			if (this.closed) return;
			if (error instanceof ApiError && error.status === 404) this.handlers.notFound();
			else this.handlers.failed((error as Error).message);
		}
	}

	private olderCame(data: SessionData): void {
		if (this.closed || this.data !== data) return;
		if (data.complete || this.handlers.waiting()) {
			clearTimeout(this.olderTimer);
			this.olderTimer = undefined;
			this.handlers.older(data);
		} else if (!this.olderTimer) {
			this.olderTimer = setTimeout(() => {
				this.olderTimer = undefined;
				if (!this.closed) this.handlers.older(data);
			}, 1000);
		}
	}

	/** On a socket close: is the session still there? If not, say so instead of reconnecting forever. */
	private async stillExists(): Promise<boolean> {
		try {
			await this.api.session(this.id);
			return true;
		} catch (error) {
			if (error instanceof ApiError && (error.status === 404 || error.status === 400)) {
				if (!this.closed)
					this.handlers.notFound(error.status === 400 ? "The link does not name a session." : undefined);
				return false;
			}
			return true;
		}
	}
}
