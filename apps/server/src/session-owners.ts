import type { AgentSessions, SessionEvent } from "@agent/session";
import { isAgentSessionError, type SessionMetadata } from "@agent/session-format";
import { canSee } from "./request-user.js";
import type { RequestUser } from "./users.js";

/** Sessions whose creator is remembered; past it the oldest are forgotten (and looked up again if needed). */
const MAX_REMEMBERED = 100_000;
/** No creator recorded: only admins see the session. */
const NOBODY = "";

/**
 * Who created each session, as the feed (/api/events) needs it to give a user only their own
 * sessions' events. Learned from the metadata events carry (every session.created and
 * session.updated), else looked up once; a creator never changes, so nothing here goes stale.
 */
export class SessionOwners {
	private readonly owners = new Map<string, string>();
	private readonly unsubscribe: () => void;

	constructor(private readonly runtime: AgentSessions) {
		this.unsubscribe = runtime.subscribe((event) => {
			if (event.type === "session.created" || event.type === "session.updated") this.remember(event.metadata);
		});
	}

	close(): void {
		this.unsubscribe();
	}

	remember(metadata: SessionMetadata): void {
		if (this.owners.has(metadata.id)) return;
		if (this.owners.size >= MAX_REMEMBERED) this.owners.delete(this.owners.keys().next().value as string);
		this.owners.set(metadata.id, metadata.createdBy ?? NOBODY);
	}

	/** The creator if known now ("" for none), else undefined. */
	known(sessionId: string): string | undefined {
		return this.owners.get(sessionId);
	}

	/** The creator ("" for none), looked up when not known; undefined when the session is gone. */
	async lookup(sessionId: string): Promise<string | undefined> {
		const known = this.owners.get(sessionId);
		if (known !== undefined) return known;
		try {
			const metadata = await this.runtime.metadata(sessionId);
			this.remember(metadata);
			return metadata.createdBy ?? NOBODY;
		} catch (error) {
			if (isAgentSessionError(error, "SESSION_NOT_FOUND")) return undefined;
			throw error;
		}
	}

	/**
	 * A sender of feed events that passes on only those of sessions `user` may see, in the order
	 * they came: while a creator is being looked up, later events wait behind it.
	 */
	filter(user: RequestUser, send: (event: SessionEvent) => void): (event: SessionEvent) => void {
		if (user.admin) return send;
		const visible = (owner: string | undefined) =>
			owner !== undefined && canSee(user, { createdBy: owner || undefined });
		let pending: Promise<void> | undefined;
		return (event) => {
			const owner = pending === undefined ? this.known(event.sessionId) : undefined;
			if (pending === undefined && owner !== undefined) {
				if (visible(owner)) send(event);
				return;
			}
			const next = (pending ?? Promise.resolve()).then(async () => {
				const looked = await this.lookup(event.sessionId).catch(() => undefined);
				if (visible(looked)) send(event);
			});
			pending = next;
			void next.then(() => {
				if (pending === next) pending = undefined;
			});
		};
	}
}
