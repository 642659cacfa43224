import { type SessionMetadata, SessionTree, type StoredRecord } from "@agent/session-format/reading";
import type { Api, ModelList } from "./api.js";
import { isOnPath, latestLeafUnder } from "./branches.js";
import { CompactionDialog } from "./compaction-dialog.js";
import { Composer } from "./composer.js";
import { byId } from "./dom.js";
import { leafAfter } from "./live-state.js";
import { LiveUpdates, type LiveView } from "./live-updates.js";
import { type NoticeKind, Notices } from "./notices.js";
import { SessionActions } from "./session-actions.js";
import { SessionConnection } from "./session-connection.js";
import { SessionFind } from "./session-find.js";
import { SessionHeader } from "./session-header.js";
import { SessionTabs } from "./session-tabs.js";
import { Transcript } from "./transcript-view.js";

/**
 * One open session (or a new one not saved yet): it keeps the session's state (metadata,
 * records, the leaf on screen, the selection) and loads it, subscribe first so nothing is missed.
 * The header, tabs, transcript, actions and compaction dialog draw and act through its
 * SessionPort; its socket's events go to the live updates (live-updates.ts).
 */
export class SessionView implements LiveView {
	private sessionId: string | undefined;
	private draft = false;
	private meta: SessionMetadata | undefined;
	private connection: SessionConnection | undefined;
	/** The leaf whose path is shown; follows the active leaf unless the user picked another branch. */
	private leaf: number | null = null;
	private selected: number | null = null;
	private compacting = false;
	private contextTokens: number | undefined;
	/** A message to show once it is loaded (a search result, a tree pick, a link), and text to mark in it. */
	private pendingFocus: { seq: number; highlight?: string; takeFocus: boolean } | undefined;

	private readonly el = {
		layout: byId("layout"),
		empty: byId("empty-state"),
		notFound: byId("not-found"),
		section: byId("session"),
	};
	readonly composer: Composer;
	private readonly notices = new Notices(byId("notice"));
	private readonly header: SessionHeader;
	private readonly tabs: SessionTabs;
	private readonly actions: SessionActions;
	private readonly compaction: CompactionDialog;
	private readonly live: LiveUpdates;
	private readonly transcript: Transcript;
	private readonly finder: SessionFind;

	constructor(
		readonly api: Api,
		private readonly go: (hash: string, replace?: boolean) => void,
	) {
		this.actions = new SessionActions(this);
		this.composer = new Composer(() => void this.actions.send());
		this.header = new SessionHeader(this);
		this.compaction = new CompactionDialog(this);
		this.live = new LiveUpdates(this, this.compaction);
		this.transcript = new Transcript(byId("transcript"), byId<HTMLButtonElement>("jump-latest"), {
			onSelect: (seq) => this.select(this.selected === seq ? null : seq),
			onSwitch: (seq) => this.showBranch(latestLeafUnder(this.tree(), seq)),
			onAction: (action, record) => void this.actions.onMessageAction(action, record),
			onCopy: (text, done) => void this.actions.copy(text, done),
			labels: () => this.tree().labels(),
			selected: () => this.selected,
			isCurrentTab: () => this.tabs.current === "transcript",
		});
		this.tabs = new SessionTabs(this, {
			onPick: (seq) => this.focusMessage(seq),
			onCompact: () => this.compaction.open(),
			onContextTokens: (tokens) => {
				this.contextTokens = tokens;
				this.renderHeader();
			},
			onShown: () => this.transcript.updateJump(),
		});
		this.finder = new SessionFind({
			tree: () => this.tree(),
			complete: () => this.connection?.data?.complete ?? true,
			show: (seq, text) => this.focusMessage(seq, text, false),
			closed: () => this.transcript.focusStop(),
		});
	}

	/** True while a saved session is on screen. */
	isOpen(): boolean {
		return this.sessionId !== undefined && !this.draft && !this.el.section.hidden;
	}

	/** Find in the whole session (Ctrl/Cmd+F). */
	find(): void {
		if (this.tabs.current !== "transcript") this.tabs.show("transcript");
		this.finder.open();
	}

	// The port: what the header, tabs, actions and dialogs may read and ask.
	id(): string | undefined {
		return this.draft ? undefined : this.sessionId;
	}
	isDraft(): boolean {
		return this.draft;
	}
	metadata(): SessionMetadata | undefined {
		return this.meta;
	}
	tree(): SessionTree {
		return this.connection?.data?.tree ?? EMPTY_TREE;
	}
	viewLeaf(): number | null {
		return this.leaf;
	}
	selectedSeq(): number | null {
		return this.selected;
	}
	activeLeaf(): number | null {
		return this.tree().activeLeaf(this.meta?.leafSeq);
	}
	isFollowing(): boolean {
		return this.leaf === null || this.leaf === this.activeLeaf();
	}
	isBusy(): boolean {
		return this.live.turns > 0;
	}
	metadataChanged(metadata: SessionMetadata): void {
		const following = this.isFollowing();
		this.meta = metadata;
		if (following) this.leaf = this.activeLeaf();
		this.render();
	}
	showBranch(leaf: number): void {
		this.leaf = leaf;
		this.select(null);
		void this.tabs.refreshContext();
	}
	select(seq: number | null): void {
		const previous = this.selected;
		this.selected = seq;
		this.transcript.refresh([previous, seq].filter((value): value is number => value !== null));
		this.render();
	}
	followLatest(): void {
		if (this.tabs.current !== "transcript") this.tabs.show("transcript");
		this.transcript.scrollToEnd();
	}
	refreshContext(): void {
		void this.tabs.refreshContext();
	}
	navigate(hash: string, replace = false): void {
		this.go(hash, replace);
	}
	notify(text: string, kind: NoticeKind = "info"): void {
		this.notices.show(text, kind);
	}
	hideNotice(): void {
		this.notices.hide();
	}
	async openCreated(id: string, firstMessage: string): Promise<void> {
		this.go(`#/s/${id}`, true);
		await this.open(id);
		await this.connection?.subscribed;
		// Deferred: if this first turn fails, the server keeps nothing and the page goes back to a draft.
		this.live.keepUnsaved(firstMessage);
	}
	setCompacting(running: boolean): void {
		this.compacting = running;
		this.renderHeader();
	}

	setModels(models: ModelList): void {
		this.composer.setModels(models);
		if (this.draft) this.composer.showModel(models.default);
	}

	/** Reconnects the session's socket at once (after a token was entered). */
	retryConnection(): void {
		this.connection?.retryNow();
	}

	/** A new session, kept in the page until the first message is sent (nothing is stored before). */
	openDraft(defaultModel: string | undefined): void {
		this.reset(undefined);
		this.draft = true;
		this.showState("session");
		if (defaultModel) this.composer.showModel(defaultModel);
		this.renderHeader();
		this.transcript.show({ tree: EMPTY_TREE, leaf: null, activeLeaf: null, complete: true, streaming: false });
		this.composer.focus();
	}

	/**
	 * Opens a session (or closes the view with undefined): loads it and subscribes at once, so
	 * nothing is missed. Resolves once the latest messages are shown; then the message box has the
	 * focus, unless `focus` names a message to show (selected, with `highlight` marked in it).
	 */
	open(id: string | undefined, focus?: { seq: number; highlight?: string }): Promise<void> {
		if (id === this.sessionId && !this.draft && id !== undefined) {
			if (focus) this.focusMessage(focus.seq, focus.highlight);
			return Promise.resolve();
		}
		this.reset(id);
		this.showState(id ? "session" : "empty");
		if (!id) return Promise.resolve();
		this.pendingFocus = focus && { ...focus, takeFocus: true };
		this.header.loading();
		const connection = new SessionConnection(this.api, id, {
			loaded: (_data, metadata) => this.loaded(metadata),
			older: () => {
				this.render();
				this.tryPendingFocus();
			},
			waiting: () => this.pendingFocus !== undefined,
			caughtUp: (added, metadata) => {
				for (const record of added) {
					this.extendView(record);
					this.transcript.recordAdded(record);
				}
				this.metadataChanged(metadata);
			},
			event: (event) => this.live.onEvent(event),
			notFound: (text) => this.showNotFound(text),
			failed: (message) => this.notify(message, "error"),
		});
		this.connection = connection;
		return connection.loaded.then(() => {
			if (this.connection === connection && !focus) this.composer.focus();
		});
	}

	private reset(id: string | undefined): void {
		this.connection?.close();
		this.connection = undefined;
		this.sessionId = id;
		this.draft = false;
		this.meta = undefined;
		this.leaf = null;
		this.selected = null;
		this.live.reset();
		this.contextTokens = undefined;
		this.pendingFocus = undefined;
		this.composer.cancelEdit();
		this.notices.hide();
		this.transcript.reset();
		this.finder.reset();
		this.composer.showTurns(0);
	}

	private showState(state: "empty" | "session" | "not-found"): void {
		this.el.empty.hidden = state !== "empty";
		this.el.notFound.hidden = state !== "not-found";
		this.el.section.hidden = state !== "session";
		this.el.layout.classList.toggle("show-session", state !== "empty");
	}

	showNotFound(text?: string): void {
		this.connection?.close();
		byId("not-found-text").textContent = text ?? "It may have been deleted, or the link is wrong.";
		this.showState("not-found");
	}

	private loaded(metadata: SessionMetadata): void {
		this.meta = metadata;
		this.leaf = this.activeLeaf();
		this.composer.showModel(metadata.model);
		this.render();
		this.transcript.scrollToEnd();
		this.tryPendingFocus();
		void this.tabs.refreshContext();
	}

	addRecord(record: StoredRecord): void {
		const data = this.connection?.data;
		if (!data) return;
		if (!data.add(record)) {
			void this.connection?.catchUp();
			return;
		}
		this.extendView(record);
		this.transcript.recordAdded(record);
		this.render();
	}

	catchUp(): void {
		void this.connection?.catchUp();
	}

	/** A record continuing the leaf on screen extends the view (on whichever branch it is). */
	private extendView(record: StoredRecord): void {
		const tree = this.tree();
		this.leaf = leafAfter({ leaf: this.leaf, following: this.isFollowing() }, record, tree.parentOf(record.seq));
	}

	/** Draws the header and hands the transcript its rows (the list draws only new rows in view). */
	render(): void {
		const data = this.connection?.data;
		if (!this.meta || !data) return;
		this.renderHeader();
		this.transcript.show({
			tree: data.tree,
			leaf: this.leaf,
			activeLeaf: this.activeLeaf(),
			complete: data.complete,
			streaming: this.live.streamingText !== undefined && this.isFollowing(),
		});
		this.tabs.treeChanged(data.tree);
	}

	private renderHeader(): void {
		this.header.render({
			metadata: this.meta,
			draft: this.draft,
			tree: this.tree(),
			viewLeaf: this.leaf,
			selectedSeq: this.selected,
			activeLeaf: this.activeLeaf(),
			contextTokens: this.contextTokens,
			compacting: this.compacting,
		});
	}

	streamingChanged(): void {
		const text = this.live.streamingText;
		const shown = this.transcript.setStreaming(text);
		if (shown !== (text !== undefined && this.isFollowing())) this.render();
	}

	/**
	 * Shows a message on its branch, selected and scrolled into view (loading older pages first if
	 * needed), with `highlight` marked in it; it takes the focus unless `takeFocus` is false (find).
	 */
	focusMessage(seq: number, highlight?: string, takeFocus = true): void {
		this.pendingFocus = { seq, ...(highlight ? { highlight } : {}), takeFocus };
		if (this.tabs.current !== "transcript") this.tabs.show("transcript");
		this.tryPendingFocus();
	}

	private tryPendingFocus(): void {
		const pending = this.pendingFocus;
		const data = this.connection?.data;
		if (pending === undefined || !data) return;
		const { seq } = pending;
		if (!data.tree.has(seq)) {
			if (data.complete) {
				this.pendingFocus = undefined;
				this.notify(`Message #${seq} is not in this session.`, "error");
			}
			return;
		}
		this.pendingFocus = undefined;
		if (!isOnPath(this.tree(), this.leaf, seq)) this.leaf = latestLeafUnder(this.tree(), seq);
		this.select(seq);
		this.transcript.reveal(seq, pending.highlight, pending.takeFocus);
	}
}

const EMPTY_TREE = new SessionTree();
