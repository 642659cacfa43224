import type { SessionEvent } from "@agent/session";
import { parentSeqOf, type SessionMetadata, SessionTree, type StoredRecord } from "@agent/session-format";
import type { Api } from "./api.js";
import { branchTips, latestLeafUnder, leafLabel } from "./branches.js";
import { renderContext } from "./context-view.js";
import { byId, h, replaceChildren } from "./dom.js";
import { EventSocket } from "./event-socket.js";
import { compactNumber, relativeTime } from "./format.js";
import { renderTranscript } from "./transcript.js";

interface Streaming {
	turnId: string;
	text: string;
}

/** One open session: transcript or context, live over its event socket, with the message box and actions. */
export class SessionView {
	private id: string | undefined;
	private metadata: SessionMetadata | undefined;
	private tree = new SessionTree();
	/** The leaf whose path is shown; follows the active leaf unless the user picked another branch. */
	private viewLeaf: number | null = null;
	private selectedSeq: number | null = null;
	private tab: "transcript" | "context" = "transcript";
	private socket: EventSocket | undefined;
	private streaming: Streaming | undefined;
	private readonly pendingTurns = new Set<string>();
	private contextTokens: number | undefined;
	private readonly streamingText = h("div", { class: "text" });
	private readonly streamingRow = h(
		"article",
		{ class: "record message assistant streaming", "data-role": "assistant", "data-testid": "streaming" },
		h("div", { class: "who" }, "assistant", h("span", { class: "typing" }, " is writing…")),
		this.streamingText,
	);

	private readonly el = {
		empty: byId("empty-state"),
		section: byId("session"),
		name: byId("session-name"),
		meta: byId("session-meta"),
		branchLabel: byId("branch-picker-label"),
		branchPicker: byId<HTMLSelectElement>("branch-picker"),
		notice: byId("notice"),
		transcript: byId("transcript"),
		context: byId("context"),
		tabTranscript: byId("tab-transcript"),
		tabContext: byId("tab-context"),
		composer: byId<HTMLFormElement>("composer"),
		message: byId<HTMLTextAreaElement>("message"),
		send: byId<HTMLButtonElement>("send"),
		queue: byId("queue-state"),
		compact: byId<HTMLButtonElement>("compact"),
		fork: byId<HTMLButtonElement>("fork"),
		branch: byId<HTMLButtonElement>("branch"),
		archive: byId<HTMLButtonElement>("archive"),
		remove: byId<HTMLButtonElement>("delete"),
	};

	constructor(
		private readonly api: Api,
		private readonly navigate: (id: string | undefined) => void,
	) {
		this.el.composer.addEventListener("submit", (event) => {
			event.preventDefault();
			void this.send();
		});
		this.el.message.addEventListener("keydown", (event) => {
			if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
				event.preventDefault();
				void this.send();
			}
		});
		this.el.tabTranscript.addEventListener("click", () => this.showTab("transcript"));
		this.el.tabContext.addEventListener("click", () => this.showTab("context"));
		this.el.compact.addEventListener("click", () => void this.compact());
		this.el.fork.addEventListener("click", () => void this.fork());
		this.el.branch.addEventListener("click", () => void this.branch());
		this.el.archive.addEventListener("click", () => void this.toggleArchived());
		this.el.remove.addEventListener("click", () => void this.remove());
		this.el.name.addEventListener("click", () => this.startRename());
		this.el.branchPicker.addEventListener("change", () => this.viewBranch(Number(this.el.branchPicker.value)));
	}

	/** Reconnects the session's socket at once (after a token was entered). */
	retryConnection(): void {
		this.socket?.retryNow();
	}

	get currentId(): string | undefined {
		return this.id;
	}

	/** Opens a session (or closes the view with undefined): subscribe first, then load, so nothing is missed. */
	open(id: string | undefined): void {
		if (id === this.id) return;
		this.socket?.close();
		this.socket = undefined;
		this.id = id;
		this.metadata = undefined;
		this.tree = new SessionTree();
		this.viewLeaf = null;
		this.selectedSeq = null;
		this.streaming = undefined;
		this.pendingTurns.clear();
		this.contextTokens = undefined;
		this.hideNotice();
		this.el.empty.hidden = id !== undefined;
		this.el.section.hidden = id === undefined;
		if (!id) return;
		replaceChildren(this.el.transcript, h("p", { class: "hint" }, "Loading…"));
		this.socket = new EventSocket(`/api/sessions/${id}/events`, {
			token: () => this.api.token,
			onOpen: () => void this.reload(id),
			onEvent: (event) => this.onEvent(id, event),
		});
	}

	private async reload(id: string): Promise<void> {
		try {
			const [metadata, records] = await Promise.all([this.api.session(id), this.api.allRecords(id)]);
			if (this.id !== id) return;
			const following = this.isFollowing();
			this.metadata = metadata;
			this.tree = new SessionTree(records);
			if (following || this.viewLeaf === null || !this.tree.has(this.viewLeaf)) this.viewLeaf = this.activeLeaf();
			this.render();
			void this.refreshContext();
		} catch (error) {
			if (this.id === id) this.showNotice((error as Error).message, true);
		}
	}

	private activeLeaf(): number | null {
		return this.tree.activeLeaf(this.metadata?.leafSeq);
	}

	private isFollowing(): boolean {
		return this.viewLeaf === null || this.viewLeaf === this.activeLeaf();
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
				break;
			}
			case "session.deleted":
				this.navigate(undefined);
				break;
			case "turn.queued":
				this.pendingTurns.add(event.turnId);
				this.renderQueue();
				break;
			case "turn.started":
				this.pendingTurns.add(event.turnId);
				this.streaming = { turnId: event.turnId, text: "" };
				this.renderQueue();
				this.renderStreaming();
				break;
			case "turn.delta":
				if (event.kind !== "text") break;
				if (!this.streaming || this.streaming.turnId !== event.turnId)
					this.streaming = { turnId: event.turnId, text: "" };
				this.streaming.text += event.delta;
				this.renderStreaming();
				break;
			case "turn.completed":
			case "turn.failed":
				this.pendingTurns.delete(event.turnId);
				if (this.streaming?.turnId === event.turnId) this.streaming = undefined;
				if (event.type === "turn.failed") this.showNotice(`The turn failed: ${event.error.message}`, true);
				this.renderQueue();
				this.renderStreaming();
				void this.refreshContext();
				break;
			case "compaction.started":
				this.showNotice("Compacting…");
				break;
			case "compaction.completed":
				this.showNotice("Compacted: older messages are now a summary (see the divider).");
				void this.refreshContext();
				break;
			case "compaction.failed":
				this.showNotice(`Compaction failed: ${event.error.message}`, true);
				break;
			default:
				break;
		}
	}

	private addRecord(record: StoredRecord): void {
		if (this.tree.has(record.seq)) return;
		if (record.seq !== this.tree.lastSeq + 1 && this.id) {
			void this.reload(this.id);
			return;
		}
		const following = this.isFollowing();
		const parent = parentSeqOf(record);
		this.tree.add(record);
		if (following && (parent === this.viewLeaf || this.viewLeaf === null)) this.viewLeaf = record.seq;
		if (record.recordType === "message" && record.role === "assistant" && this.streaming) this.streaming.text = "";
		this.render();
	}

	private render(): void {
		const metadata = this.metadata;
		if (!metadata) return;
		this.el.name.textContent = metadata.name ?? "Untitled session";
		const tokens = this.contextTokens !== undefined ? ` · ≈${compactNumber(this.contextTokens)} tokens in context` : "";
		this.el.meta.textContent =
			`${metadata.model || "default model"} · ${metadata.messageCount} messages${tokens} · ` +
			`${metadata.source === "cron" ? `cron job ${metadata.cronJobId ?? ""} · ` : ""}created ${relativeTime(metadata.createdAt)}`;
		this.el.archive.textContent = metadata.archivedAt ? "Unarchive" : "Archive";
		this.renderBranchPicker();
		const active = this.activeLeaf();
		const at = this.selectedSeq ?? this.viewLeaf;
		this.el.branch.disabled = at === null || (at === active && this.selectedSeq === null);
		this.el.fork.disabled = this.tree.size === 0;
		this.el.branch.title =
			at === null
				? "Nothing to branch from yet"
				: `Continue the conversation from #${at} (the next message goes there)`;
		this.el.fork.title = `Copy the conversation up to #${at ?? "the end"} into a new session`;
		if (this.tab === "transcript") {
			renderTranscript(this.el.transcript, {
				tree: this.tree,
				leaf: this.viewLeaf,
				activeLeaf: active,
				selectedSeq: this.selectedSeq,
				onSelect: (seq) => {
					this.selectedSeq = this.selectedSeq === seq ? null : seq;
					this.render();
				},
				onSwitch: (seq) => this.viewBranch(latestLeafUnder(this.tree, seq)),
			});
			this.renderStreaming();
		}
	}

	/** Shows the path to another leaf (nothing changes on disk until the user branches or sends). */
	private viewBranch(leaf: number): void {
		this.viewLeaf = leaf;
		this.selectedSeq = null;
		this.render();
		void this.refreshContext();
	}

	private renderBranchPicker(): void {
		const tips = branchTips(this.tree);
		this.el.branchLabel.hidden = tips.length < 2;
		if (tips.length < 2) return;
		const active = this.activeLeaf();
		replaceChildren(
			this.el.branchPicker,
			...tips.map((leaf) =>
				h(
					"option",
					{ value: String(leaf) },
					`#${leaf} · ${leafLabel(this.tree, leaf)}${leaf === active ? " (active)" : ""}`,
				),
			),
		);
		if (this.viewLeaf !== null && !tips.includes(this.viewLeaf)) {
			this.el.branchPicker.append(h("option", { value: String(this.viewLeaf) }, `#${this.viewLeaf} (active)`));
		}
		this.el.branchPicker.value = String(this.viewLeaf);
	}

	private renderStreaming(): void {
		const show = this.tab === "transcript" && this.streaming !== undefined && this.isFollowing();
		if (!show) {
			this.streamingRow.remove();
			return;
		}
		this.streamingText.textContent = this.streaming?.text ?? "";
		if (this.streamingRow.parentElement !== this.el.transcript) this.el.transcript.append(this.streamingRow);
		this.scrollToEnd();
	}

	private renderQueue(): void {
		const count = this.pendingTurns.size;
		this.el.queue.textContent = count === 0 ? "" : count === 1 ? "working…" : `${count} turns queued`;
	}

	private scrollToEnd(): void {
		const scroller = this.el.transcript;
		scroller.scrollTop = scroller.scrollHeight;
	}

	private showTab(tab: "transcript" | "context"): void {
		this.tab = tab;
		this.el.tabTranscript.setAttribute("aria-selected", String(tab === "transcript"));
		this.el.tabContext.setAttribute("aria-selected", String(tab === "context"));
		this.el.transcript.hidden = tab !== "transcript";
		this.el.context.hidden = tab !== "context";
		if (tab === "context") void this.refreshContext();
		else this.render();
	}

	private async refreshContext(): Promise<void> {
		const id = this.id;
		if (!id) return;
		try {
			const view = await this.api.context(id, this.viewLeaf);
			if (this.id !== id) return;
			this.contextTokens = view.context.estimatedTokens;
			if (this.tab === "context") renderContext(this.el.context, view);
			this.render();
		} catch (error) {
			if (this.tab === "context")
				replaceChildren(this.el.context, h("p", { class: "hint error-text" }, (error as Error).message));
		}
	}

	private async send(): Promise<void> {
		const id = this.id;
		const text = this.el.message.value.trim();
		if (!id || text.length === 0) return;
		this.el.message.value = "";
		if (!this.isFollowing()) {
			this.viewLeaf = this.activeLeaf();
			this.render();
		}
		try {
			await this.api.send(id, text);
		} catch (error) {
			this.el.message.value = text;
			this.showNotice((error as Error).message, true);
		}
	}

	private async compact(): Promise<void> {
		const id = this.id;
		if (!id) return;
		this.el.compact.disabled = true;
		try {
			const result = await this.api.compact(id);
			if (!result.compacted) this.showNotice("Nothing to compact yet: the conversation is still short.");
		} catch (error) {
			this.showNotice((error as Error).message, true);
		} finally {
			this.el.compact.disabled = false;
		}
	}

	private async fork(): Promise<void> {
		const id = this.id;
		if (!id) return;
		try {
			const at = this.selectedSeq ?? this.viewLeaf ?? undefined;
			const forked = await this.api.fork(id, at);
			this.navigate(forked.id);
		} catch (error) {
			this.showNotice((error as Error).message, true);
		}
	}

	private async branch(): Promise<void> {
		const id = this.id;
		const at = this.selectedSeq ?? this.viewLeaf;
		if (!id || at === null) return;
		try {
			this.metadata = await this.api.branch(id, at);
			this.viewLeaf = at;
			this.selectedSeq = null;
			this.showNotice(`The next message continues from #${at}; the later messages stay on their own branch.`);
			this.render();
			void this.refreshContext();
		} catch (error) {
			this.showNotice((error as Error).message, true);
		}
	}

	private async toggleArchived(): Promise<void> {
		const id = this.id;
		if (!id || !this.metadata) return;
		try {
			this.metadata = await this.api.updateSession(id, { archived: !this.metadata.archivedAt });
			this.render();
		} catch (error) {
			this.showNotice((error as Error).message, true);
		}
	}

	private async remove(): Promise<void> {
		const id = this.id;
		if (!id) return;
		if (!confirm(`Delete “${this.metadata?.name ?? id}” and its whole history? This cannot be undone.`)) return;
		try {
			await this.api.deleteSession(id);
			this.navigate(undefined);
		} catch (error) {
			this.showNotice((error as Error).message, true);
		}
	}

	private startRename(): void {
		const id = this.id;
		if (!id || !this.metadata) return;
		const input = h("input", { class: "rename", value: this.metadata.name ?? "", "aria-label": "Session name" });
		let finished = false;
		const finish = async (save: boolean) => {
			if (finished) return;
			finished = true;
			input.replaceWith(this.el.name);
			const name = input.value.trim();
			if (!save || name.length === 0 || name === this.metadata?.name) return;
			try {
				this.metadata = await this.api.updateSession(id, { name });
				this.render();
			} catch (error) {
				this.showNotice((error as Error).message, true);
			}
		};
		input.addEventListener("keydown", (event) => {
			if (event.key === "Enter") void finish(true);
			if (event.key === "Escape") void finish(false);
		});
		input.addEventListener("blur", () => void finish(true));
		this.el.name.replaceWith(input);
		input.focus();
		input.select();
	}

	private showNotice(text: string, isError = false): void {
		this.el.notice.textContent = text;
		this.el.notice.classList.toggle("error", isError);
		this.el.notice.hidden = false;
	}

	private hideNotice(): void {
		this.el.notice.hidden = true;
	}
}
