import type { SessionMetadata, SessionTree } from "@agent/session-format/reading";
import type { Api } from "./api.js";
import type { Composer } from "./composer.js";
import type { NoticeKind } from "./notices.js";

/**
 * What the page's actions, dialogs and header may know of the open session and ask of it. They
 * read through this and ask for changes; only the session view (which implements it) keeps the
 * session's state, so none of them imports the view or writes its fields.
 */
export interface SessionPort {
	readonly api: Api;
	readonly composer: Composer;
	/** The open session's id; undefined for none, or for a new session not saved yet. */
	id(): string | undefined;
	/** A new session that exists only in the page until its first message is sent. */
	isDraft(): boolean;
	metadata(): SessionMetadata | undefined;
	tree(): SessionTree;
	/** The leaf whose path is on screen. */
	viewLeaf(): number | null;
	selectedSeq(): number | null;
	/** Where the next message goes unless the page says otherwise. */
	activeLeaf(): number | null;
	/** True when the branch on screen is the active one. */
	isFollowing(): boolean;
	/** True while a turn of the session is queued or running. */
	isBusy(): boolean;

	/** The session's metadata as an API answer gave it (a rename, an archive, a leaf move). */
	metadataChanged(metadata: SessionMetadata): void;
	/** Shows the path to `leaf`, nothing selected. */
	showBranch(leaf: number): void;
	select(seq: number | null): void;
	/** Scrolls to the latest message (a reply appears there). */
	followLatest(): void;
	refreshContext(): void;
	navigate(hash: string, replace?: boolean): void;
	notify(text: string, kind?: NoticeKind): void;
	hideNotice(): void;
	/**
	 * Opens a session the page just created for a new session's first message, and resolves once
	 * its events are subscribed; if that first turn fails, the page goes back to a new session with
	 * `firstMessage` in the box (nothing was kept).
	 */
	openCreated(id: string, firstMessage: string): Promise<void>;
	/** A compaction this page started runs (true) or ended (false): Compact waits meanwhile. */
	setCompacting(running: boolean): void;
}
