import type { SessionEvent } from "@agent/session";
import {
	isSideRecord,
	modelLabel,
	parentSeqOf,
	type SessionMetadata,
	SessionTree,
	type StoredRecord,
} from "@agent/session-format/reading";
import { type Api, ApiError, type ModelList } from "./api.js";
import { branchTips, latestLeafUnder, leafLabel, shownAt } from "./branches.js";
import { Composer } from "./composer.js";
import { ContextPanel } from "./context-view.js";
import { byId, h, replaceChildren } from "./dom.js";
import { EventSocket } from "./event-socket.js";
import { compactNumber, formatCost, fullDate, relativeTime } from "./format.js";
import { type MessageAction, type RowContext, renderRow } from "./record-view.js";
import { SessionActions } from "./session-actions.js";
import { SessionData } from "./session-data.js";
import { estimateRowHeight, type PathRowsCache, type TranscriptRow, transcriptRows } from "./transcript.js";
import { TreeView } from "./tree-view.js";
import { VirtualList } from "./virtual-list.js";

type Tab = "transcript" | "context" | "tree";

/**
 * One open session (or a new one not saved yet): the transcript (virtualized, opened at the
 * latest message), the context and tree tabs, live over the session's event socket, with the
 * message box and the actions.
 */
export class SessionView {
	id: string | undefined;
	/** A new session that exists only in this page until the first send. */
	draft = false;
	/** The first message of a deferred session, until its reply comes: restored if the turn fails (nothing was kept). */
	unsavedFirstMessage: string | undefined;
	metadata: SessionMetadata | undefined;
	data: SessionData | undefined;
	/** The leaf whose path is shown; follows the active leaf unless the user picked another branch. */
	viewLeaf: number | null = null;
	selectedSeq: number | null = null;
	private tab: Tab = "transcript";
	private socket: EventSocket | undefined;
	private streaming: { turnId: string; text: string } | undefined;
	readonly pendingTurns = new Set<string>();
	private contextTokens: number | undefined;
	/** Resolves once the open session's socket is subscribed (its events are then never missed). */
	subscribed: Promise<void> = Promise.resolve();
	/** A message to show once it is loaded (a search result, a tree pick, a link). */
	private pendingFocus: number | undefined;
	private readonly streamingText = h("div", { class: "text" });
	private readonly streamingRow = h(
		"div",
		{ class: "row" },
		h(
			"article",
			{ class: "record message assistant streaming", "data-role": "assistant", "data-testid": "streaming" },
			h("div", { class: "who" }, "assistant", h("span", { class: "typing" }, " is writing…")),
			this.streamingText,
		),
	);

	readonly el = {
		layout: byId("layout"),
		empty: byId("empty-state"),
		notFound: byId("not-found"),
		section: byId("session"),
		name: byId<HTMLButtonElement>("session-name"),
		meta: byId("session-meta"),
		forkedFrom: byId<HTMLAnchorElement>("forked-from"),
		branchLabel: byId("branch-picker-label"),
		branchPicker: byId<HTMLSelectElement>("branch-picker"),
		notice: byId("notice"),
		transcript: byId("transcript"),
		jump: byId<HTMLButtonElement>("jump-latest"),
		context: byId("context"),
		tree: byId("tree"),
		tabs: { transcript: byId("tab-transcript"), context: byId("tab-context"), tree: byId("tab-tree") },
		queue: byId("queue-state"),
		send: byId<HTMLButtonElement>("send"),
		compact: byId<HTMLButtonElement>("compact"),
		fork: byId<HTMLButtonElement>("fork"),
		branch: byId<HTMLButtonElement>("branch"),
		exportButton: byId<HTMLButtonElement>("export"),
		archive: byId<HTMLButtonElement>("archive"),
		remove: byId<HTMLButtonElement>("delete"),
	};

	readonly composer: Composer;
	private readonly actions: SessionActions;
	private readonly transcript: VirtualList<TranscriptRow>;
	private readonly contextPanel: ContextPanel;
	private readonly treeView: TreeView;
	private readonly rowContext: RowContext;
	private readonly pathRows: PathRowsCache = {};
	private backfillRender: ReturnType<typeof setTimeout> | undefined;

	constructor(
		readonly api: Api,
		readonly navigate: (hash: string, replace?: boolean) => void,
	) {
		this.actions = new SessionActions(this);
		this.composer = new Composer(() => void this.actions.send());
		const view = this;
		this.rowContext = {
			get selectedSeq() {
				return view.selectedSeq;
			},
			get labels() {
				return view.data?.tree.labels() ?? new Map();
			},
			streamingRow: this.streamingRow,
			onSelect: (seq) => this.select(this.selectedSeq === seq ? null : seq),
			onSwitch: (seq) => this.viewBranch(latestLeafUnder(this.tree(), seq)),
			onAction: (action: MessageAction, record: StoredRecord) => void this.actions.onMessageAction(action, record),
		};
		this.transcript = new VirtualList<TranscriptRow>({
			scroller: this.el.transcript,
			keyOf: (row) => row.key,
			estimateSize: estimateRowHeight,
			render: (row) => renderRow(row, this.rowContext),
			followEnd: true,
			gap: 10,
			onChange: () => this.updateJump(),
		});
		this.contextPanel = new ContextPanel(this.el.context);
		this.treeView = new TreeView(this.el.tree, {
			onPick: (seq) => this.focusMessage(seq),
			activePath: () =>
				new Set(
					this.viewLeaf === null
						? []
						: this.tree()
								.path(this.viewLeaf)
								.map((r) => r.seq),
				),
			labels: () => this.tree().labels(),
		});
		for (const tab of ["transcript", "context", "tree"] as const) {
			this.el.tabs[tab].addEventListener("click", () => this.showTab(tab));
		}
		this.el.jump.addEventListener("click", () => this.transcript.scrollToEnd());
		this.el.branchPicker.addEventListener("change", () => this.viewBranch(Number(this.el.branchPicker.value)));
	}

	get currentId(): string | undefined {
		return this.id;
	}

	tree(): SessionTree {
		return this.data?.tree ?? EMPTY_TREE;
	}

	activeLeaf(): number | null {
		return this.tree().activeLeaf(this.metadata?.leafSeq);
	}

	isFollowing(): boolean {
		return this.viewLeaf === null || this.viewLeaf === this.activeLeaf();
	}

	setModels(models: ModelList): void {
		this.composer.setModels(models);
		if (this.draft) this.composer.showModel(models.default);
	}

	/** Reconnects the session's socket at once (after a token was entered). */
	retryConnection(): void {
		this.socket?.retryNow();
	}

	/** A new session, kept in the page until the first message is sent (nothing is stored before). */
	openDraft(defaultModel: string | undefined): void {
		this.reset(undefined);
		this.draft = true;
		this.showState("session");
		this.el.name.textContent = "New session";
		this.el.meta.textContent = "Nothing is saved until you send the first message.";
		this.el.forkedFrom.hidden = true;
		this.el.branchLabel.hidden = true;
		for (const button of [
			this.el.compact,
			this.el.fork,
			this.el.branch,
			this.el.exportButton,
			this.el.archive,
			this.el.remove,
		]) {
			button.disabled = true;
		}
		this.el.archive.textContent = "Archive";
		if (defaultModel) this.composer.showModel(defaultModel);
		this.transcript.setItems(
			transcriptRows({ tree: EMPTY_TREE, leaf: null, activeLeaf: null, complete: true, streaming: false }),
		);
		this.transcript.refresh();
		this.composer.message.focus();
	}

	/**
	 * Opens a session (or closes the view with undefined): subscribe first, then load, so nothing
	 * is missed. Resolves once the latest messages are shown. `focusSeq` selects a message.
	 */
	open(id: string | undefined, focusSeq?: number): Promise<void> {
		if (id === this.id && !this.draft) {
			if (focusSeq !== undefined) this.focusMessage(focusSeq);
			return Promise.resolve();
		}
		this.reset(id);
		this.showState(id ? "session" : "empty");
		if (!id) return Promise.resolve();
		this.pendingFocus = focusSeq;
		this.el.name.textContent = "";
		this.el.meta.textContent = "Loading…";
		// Load at once, and subscribe at the same time: once subscribed, whatever was appended
		// since the load is fetched (catchUp), so nothing is missed and nothing waits for the socket.
		const loaded = this.reload(id);
		let subscribed = () => {};
		this.subscribed = new Promise<void>((resolve) => {
			subscribed = resolve;
		});
		this.socket = new EventSocket(`/api/sessions/${id}/events`, {
			token: () => this.api.token,
			onOpen: () => {
				subscribed();
				void loaded.then(() => this.catchUp(id));
			},
			onEvent: (event) => this.onEvent(id, event),
			shouldReconnect: () => this.stillExists(id),
		});
		return loaded;
	}

	private reset(id: string | undefined): void {
		this.unsavedFirstMessage = undefined;
		this.socket?.close();
		this.socket = undefined;
		this.data?.stop();
		this.data = undefined;
		this.id = id;
		this.draft = false;
		this.metadata = undefined;
		this.viewLeaf = null;
		this.selectedSeq = null;
		this.streaming = undefined;
		this.pendingTurns.clear();
		this.contextTokens = undefined;
		this.pendingFocus = undefined;
		this.composer.cancelEdit();
		this.hideNotice();
		this.renderQueue();
		for (const button of [this.el.compact, this.el.fork, this.el.exportButton, this.el.archive, this.el.remove]) {
			button.disabled = false;
		}
	}

	private showState(state: "empty" | "session" | "not-found"): void {
		this.el.empty.hidden = state !== "empty";
		this.el.notFound.hidden = state !== "not-found";
		this.el.section.hidden = state !== "session";
		this.el.layout.classList.toggle("show-session", state !== "empty");
	}

	/** On a socket close: is the session still there? If not, say so instead of reconnecting forever. */
	private async stillExists(id: string): Promise<boolean> {
		try {
			await this.api.session(id);
			return true;
		} catch (error) {
			if (error instanceof ApiError && (error.status === 404 || error.status === 400)) {
				if (this.id === id) this.showNotFound(error.status === 400 ? "The link does not name a session." : undefined);
				return false;
			}
			return true;
		}
	}

	showNotFound(text?: string): void {
		this.socket?.close();
		this.socket = undefined;
		byId("not-found-text").textContent = text ?? "It may have been deleted, or the link is wrong.";
		this.showState("not-found");
	}

	/** Loads the session's metadata and newest records (older ones follow in the background). */
	private async reload(id: string): Promise<void> {
		try {
			const following = this.isFollowing();
			this.data?.stop();
			const data = new SessionData(this.api, id, () => {
				if (this.data !== data) return;
				// Older pages change only what is above the view: drawn at most once a second while
				// they come (the typing stays smooth), and once more when the last one is in.
				if (data.complete || this.pendingFocus !== undefined) {
					clearTimeout(this.backfillRender);
					this.backfillRender = undefined;
					this.render();
					this.tryPendingFocus();
				} else if (!this.backfillRender) {
					this.backfillRender = setTimeout(() => {
						this.backfillRender = undefined;
						if (this.data === data) this.render();
					}, 1000);
				}
			});
			const [metadata] = await Promise.all([this.api.session(id), data.loadLatest()]);
			if (this.id !== id) return;
			this.data = data;
			this.metadata = metadata;
			if (following || this.viewLeaf === null || !data.tree.has(this.viewLeaf)) this.viewLeaf = this.activeLeaf();
			this.composer.showModel(metadata.model);
			this.render();
			this.transcript.scrollToEnd();
			this.tryPendingFocus();
			void this.refreshContext();
		} catch (error) {
			if (this.id !== id) return;
			if (error instanceof ApiError && error.status === 404) this.showNotFound();
			else this.showNotice((error as Error).message, true);
		}
	}

	/** After a (re)subscription or a gap: the records and metadata this page has not seen. */
	private async catchUp(id: string): Promise<void> {
		const data = this.data;
		if (this.id !== id || !data) return;
		try {
			const following = this.isFollowing();
			const before = data.tree.lastSeq;
			const [metadata, added] = await Promise.all([this.api.session(id), data.catchUp()]);
			if (this.id !== id || this.data !== data) return;
			this.metadata = metadata;
			this.transcript.refresh(labelTargets(added));
			if (following) this.viewLeaf = this.activeLeaf();
			if (data.tree.lastSeq !== before || following) this.render();
		} catch (error) {
			if (this.id === id && !(error instanceof ApiError && error.status === 404)) {
				this.showNotice((error as Error).message, true);
			}
		}
	}

	private onEvent(id: string, event: SessionEvent): void {
		if (id !== this.id) return;
		switch (event.type) {
			case "record.appended":
				this.addRecord(event.record as StoredRecord);
				break;
			case "session.updated": {
				const following = this.isFollowing();
				this.metadata = event.metadata;
				if (following) this.viewLeaf = this.activeLeaf();
				this.render();
				// A rename, a label or a leaf move writes a record without a record.appended event.
				if (this.data && event.metadata.lastSeq > this.data.tree.lastSeq) void this.catchUp(id);
				break;
			}
			case "session.deleted":
				if (this.unsavedFirstMessage !== undefined) {
					this.firstTurnLost(this.unsavedFirstMessage);
					break;
				}
				this.showNotFound("This session was deleted.");
				break;
			case "turn.queued":
				this.pendingTurns.add(event.turnId);
				this.renderQueue();
				break;
			case "turn.started":
				this.pendingTurns.add(event.turnId);
				this.streaming = { turnId: event.turnId, text: "" };
				this.renderQueue();
				this.renderStreaming(true);
				break;
			case "turn.delta":
				if (event.kind !== "text") break;
				if (!this.streaming || this.streaming.turnId !== event.turnId)
					this.streaming = { turnId: event.turnId, text: "" };
				this.streaming.text += event.delta;
				this.renderStreaming(false);
				break;
			case "turn.completed":
			case "turn.failed":
				if (event.type === "turn.completed") this.unsavedFirstMessage = undefined;
				this.pendingTurns.delete(event.turnId);
				if (this.streaming?.turnId === event.turnId) this.streaming = undefined;
				if (event.type === "turn.failed") {
					if (event.error.code === "ABORTED") this.showNotice("Stopped: what the reply had written so far is kept.");
					else this.showNotice(`The turn failed: ${event.error.message}`, true);
				}
				this.renderQueue();
				this.render();
				void this.refreshContext();
				break;
			case "compaction.started":
			case "compaction.progress":
			case "compaction.skipped":
			case "compaction.failed":
				this.actions.compaction.onEvent(event);
				break;
			case "compaction.completed":
				this.actions.compaction.onEvent(event);
				void this.refreshContext();
				break;
			default:
				break;
		}
	}

	private addRecord(record: StoredRecord): void {
		const data = this.data;
		if (!data || !this.id) return;
		const following = this.isFollowing();
		if (!data.add(record)) {
			void this.catchUp(this.id);
			return;
		}
		const parent = parentSeqOf(record);
		// A side record (a turn's record, a label, a leaf move) is never a leaf to view.
		if (following && !isSideRecord(record) && (parent === this.viewLeaf || this.viewLeaf === null)) {
			this.viewLeaf = record.seq;
		}
		if (record.recordType === "message" && record.role === "assistant" && this.streaming) this.streaming.text = "";
		this.transcript.refresh(labelTargets([record]));
		this.render();
	}

	/** Re-draws the header and hands the rows to the list, which draws only new rows in view. */
	render(): void {
		const metadata = this.metadata;
		if (!metadata || !this.data) return;
		this.renderHeader(metadata);
		this.renderBranchPicker();
		const active = this.activeLeaf();
		const at = this.selectedSeq ?? this.viewLeaf;
		this.el.branch.disabled = at === null || (at === active && this.selectedSeq === null);
		this.el.fork.disabled = this.data.tree.size === 0;
		this.el.branch.title =
			at === null
				? "Nothing to branch from yet"
				: `Continue the conversation from #${at} (the next message goes there)`;
		this.el.fork.title = `Copy the conversation up to #${at ?? "the end"} into a new session`;
		this.el.transcript.dataset.complete = String(this.data.complete);
		this.transcript.setItems(
			transcriptRows(
				{
					tree: this.data.tree,
					leaf: this.viewLeaf,
					activeLeaf: active,
					complete: this.data.complete,
					streaming: this.streaming !== undefined && this.isFollowing(),
				},
				this.pathRows,
			),
		);
		if (this.tab === "tree") this.treeView.show(this.data.tree);
	}

	private renderHeader(metadata: SessionMetadata): void {
		this.el.name.textContent = metadata.name ?? "Untitled session";
		const metrics = metadata.metrics;
		const parts = [
			modelLabel(metadata.model) || "default model",
			`${metadata.messageCount} messages`,
			this.contextTokens !== undefined ? `≈${compactNumber(this.contextTokens)} tokens in context` : "",
			metrics && metrics.totalTokens > 0 ? `${compactNumber(metrics.totalTokens)} tokens used` : "",
			formatCost(metrics?.cost),
			metadata.source === "cron" ? `cron job ${metadata.cronJobId ?? ""}` : "",
			metadata.identityKey ? `identity ${metadata.identityKey}` : "",
			metadata.uptimeSeconds ? `active ${activeTime(metadata.uptimeSeconds)}` : "",
		].filter(Boolean);
		replaceChildren(
			this.el.meta,
			`${parts.join(" · ")} · created `,
			h(
				"time",
				{ datetime: metadata.createdAt, title: fullDate(metadata.createdAt) },
				relativeTime(metadata.createdAt),
			),
		);
		this.el.archive.textContent = metadata.archivedAt ? "Unarchive" : "Archive";
		const origin = metadata.forkedFrom;
		this.el.forkedFrom.hidden = !origin;
		if (origin) {
			this.el.forkedFrom.href = `#/s/${origin.sessionId}/${origin.seq}`;
			this.el.forkedFrom.textContent = `forked from ${origin.sessionId.slice(-6)} at #${origin.seq}`;
			this.el.forkedFrom.title = `Open the session this one was forked from (${origin.sessionId})`;
		}
	}

	private renderBranchPicker(): void {
		const tree = this.tree();
		const tips = branchTips(tree);
		this.el.branchLabel.hidden = tips.length < 2;
		if (tips.length < 2) return;
		const active = this.activeLeaf();
		const activeShown = active === null ? null : shownAt(tree, active);
		replaceChildren(
			this.el.branchPicker,
			...tips.map((tip) =>
				h(
					"option",
					{ value: String(tip.leaf) },
					`#${tip.shown} · ${leafLabel(tree, tip.shown)}${tip.shown === activeShown ? " (active)" : ""}`,
				),
			),
		);
		const viewShown = this.viewLeaf === null ? null : shownAt(tree, this.viewLeaf);
		const current = tips.find((tip) => tip.shown === viewShown);
		if (current) this.el.branchPicker.value = String(current.leaf);
		else if (this.viewLeaf !== null) {
			this.el.branchPicker.append(h("option", { value: String(this.viewLeaf) }, `#${this.viewLeaf}`));
			this.el.branchPicker.value = String(this.viewLeaf);
		}
	}

	/** Shows the path to another leaf (nothing changes on disk until the user branches or sends). */
	viewBranch(leaf: number): void {
		this.viewLeaf = leaf;
		this.select(null);
		this.render();
		void this.refreshContext();
	}

	select(seq: number | null): void {
		const previous = this.selectedSeq;
		this.selectedSeq = seq;
		this.transcript.refresh([previous, seq].filter((value): value is number => value !== null));
		this.render();
	}

	/** Shows a message on its branch, selected and scrolled into view (loading older pages first if needed). */
	focusMessage(seq: number): void {
		this.pendingFocus = seq;
		if (this.tab !== "transcript") this.showTab("transcript");
		this.tryPendingFocus();
	}

	private tryPendingFocus(): void {
		const seq = this.pendingFocus;
		const data = this.data;
		if (seq === undefined || !data) return;
		if (!data.tree.has(seq)) {
			if (data.complete) {
				this.pendingFocus = undefined;
				this.showNotice(`Message #${seq} is not in this session.`, true);
			}
			return;
		}
		this.pendingFocus = undefined;
		const onPath =
			this.viewLeaf !== null &&
			this.tree()
				.path(this.viewLeaf)
				.some((record) => record.seq === seq);
		if (!onPath) this.viewLeaf = latestLeafUnder(this.tree(), seq);
		this.select(seq);
		const scroll = (tries: number) => {
			this.transcript.scrollToKey(seq, "center");
			const row = this.transcript.rowOf(seq);
			if (row) row.querySelector<HTMLElement>("[tabindex='0']")?.focus({ preventScroll: true });
			if (tries > 0) requestAnimationFrame(() => scroll(tries - 1));
		};
		scroll(3);
	}

	private renderStreaming(started: boolean): void {
		this.streamingText.textContent = this.streaming?.text ?? "";
		if (started) this.render();
	}

	renderQueue(): void {
		const count = this.pendingTurns.size;
		this.el.queue.textContent = count === 0 ? "" : count === 1 ? "working…" : `${count} turns queued`;
		byId("stop").hidden = count === 0;
	}

	/** A new session's first turn failed or was stopped: nothing was saved, so back to a draft with the text. */
	private firstTurnLost(text: string): void {
		this.unsavedFirstMessage = undefined;
		this.navigate("#/new", true);
		this.composer.message.value = text;
		this.showNotice(
			"The first reply did not come, so nothing was saved; your message is back in the box to send again.",
			true,
		);
	}

	/** Shows the latest message (after a send, the reply appears there). */
	followLatest(): void {
		if (this.tab !== "transcript") this.showTab("transcript");
		this.transcript.scrollToEnd();
	}

	private updateJump(): void {
		this.el.jump.hidden = this.tab !== "transcript" || this.transcript.distanceFromEnd() < 200;
	}

	showTab(tab: Tab): void {
		this.tab = tab;
		for (const name of ["transcript", "context", "tree"] as const) {
			this.el.tabs[name].setAttribute("aria-selected", String(name === tab));
		}
		this.el.transcript.hidden = tab !== "transcript";
		this.el.context.hidden = tab !== "context";
		this.el.tree.hidden = tab !== "tree";
		this.updateJump();
		if (tab === "context") void this.refreshContext();
		if (tab === "tree" && this.data) this.treeView.show(this.data.tree);
	}

	async refreshContext(): Promise<void> {
		const id = this.id;
		if (!id || this.draft) return;
		try {
			const view = await this.api.context(id, this.viewLeaf);
			if (this.id !== id) return;
			this.contextTokens = view.context.estimatedTokens;
			if (this.tab === "context") this.contextPanel.show(view);
			if (this.metadata) this.renderHeader(this.metadata);
		} catch (error) {
			if (this.tab === "context") this.showNotice((error as Error).message, true);
		}
	}

	showNotice(text: string, isError = false): void {
		this.el.notice.textContent = text;
		this.el.notice.classList.toggle("error", isError);
		this.el.notice.hidden = false;
	}

	hideNotice(): void {
		this.el.notice.hidden = true;
	}
}

const EMPTY_TREE = new SessionTree();

/** The records whose label these records change (their rows are drawn again). */
function labelTargets(records: readonly StoredRecord[]): number[] {
	return records.flatMap((record) => (record.recordType === "label" ? [record.targetSeq] : []));
}

/** A session's active time (the sum of its turns' durations), e.g. "12 s" or "3 min". */
function activeTime(seconds: number): string {
	if (seconds < 60) return `${Math.max(1, Math.round(seconds))} s`;
	if (seconds < 3600) return `${Math.round(seconds / 60)} min`;
	return `${(seconds / 3600).toFixed(1)} h`;
}
