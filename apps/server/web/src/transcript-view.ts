import type { StoredRecord } from "@agent/session-format/reading";
import { h } from "./dom.js";
import { markText } from "./highlight-text.js";
import { type MessageAction, type RowContext, renderRow } from "./record-view.js";
import {
	estimateRowHeight,
	type PathRowsCache,
	type TranscriptInput,
	type TranscriptRow,
	transcriptRows,
} from "./transcript.js";
import { type RowKey, VirtualList } from "./virtual-list.js";

export interface TranscriptHandlers {
	onSelect(seq: number): void;
	onSwitch(seq: number): void;
	onAction(action: MessageAction, record: StoredRecord): void;
	onCopy(text: string, done: string): void;
	labels(): ReadonlyMap<number, string>;
	selected(): number | null;
	/** True while the transcript tab is the one shown. */
	isCurrentTab(): boolean;
}

/** What may take the focus inside a row: reachable with Tab only in the row that has the focus. */
const INNER_FOCUSABLE = "a[href], button, summary, input, select, textarea, [tabindex]:not([data-message])";

/**
 * The transcript: a virtualized list of the rows of the path on screen (transcript.ts), the reply
 * being written, "Jump to latest", and the keyboard: the transcript is one Tab stop (the message
 * last focused, else the latest); Up/Down, Home/End move between messages; Tab goes into the
 * focused message's controls. Code blocks' Copy buttons and images are handled here for every row.
 */
export class Transcript {
	private readonly list: VirtualList<TranscriptRow>;
	private readonly cache: PathRowsCache = {};
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
	private readonly context: RowContext;
	private hasStreamingRow = false;
	/** The message that is the transcript's Tab stop, once the user focused one. */
	private tabStop: number | undefined;
	private highlight: { seq: number; text: string } | undefined;
	private refreshAll = false;

	constructor(
		private readonly scroller: HTMLElement,
		private readonly jump: HTMLButtonElement,
		private readonly handlers: TranscriptHandlers,
	) {
		this.context = {
			get selectedSeq() {
				return handlers.selected();
			},
			get labels() {
				return handlers.labels();
			},
			streamingRow: this.streamingRow,
			onSelect: (seq) => handlers.onSelect(seq),
			onSwitch: (seq) => handlers.onSwitch(seq),
			onAction: (action, record) => handlers.onAction(action, record),
		};
		this.list = new VirtualList<TranscriptRow>({
			scroller,
			keyOf: (row) => row.key,
			estimateSize: estimateRowHeight,
			render: (row) => this.renderRow(row),
			followEnd: true,
			gap: 10,
			onChange: () => {
				this.updateJump();
				this.syncTabStop();
			},
		});
		jump.addEventListener("click", () => this.scrollToEnd());
		scroller.addEventListener("keydown", (event) => this.onKey(event));
		scroller.addEventListener("focusin", (event) => this.onFocus(event));
		scroller.addEventListener("focusout", (event) => this.onBlur(event));
		scroller.addEventListener("click", (event) => this.onClick(event));
		scroller.setAttribute("aria-label", "Transcript: Up and Down move between messages, Enter selects one");
	}

	/** Hands the list the rows for the path on screen; only new or changed rows are drawn again. */
	show(input: TranscriptInput): void {
		this.scroller.dataset.complete = String(input.complete);
		const rows = transcriptRows(input, this.cache);
		this.hasStreamingRow = input.streaming;
		this.list.setItems(rows);
		if (this.refreshAll) {
			this.refreshAll = false;
			this.list.refresh();
		} else if (this.cache.changed && this.cache.changed.length > 0) this.list.refresh(this.cache.changed);
	}

	/** The reply being written; returns whether its row is among the rows shown. */
	setStreaming(text: string | undefined): boolean {
		this.streamingText.textContent = text ?? "";
		return this.hasStreamingRow;
	}

	/**
	 * A record was added to the tree: a label draws its target again; a compaction changes what is
	 * dimmed above it, so every row is drawn again (at the next show).
	 */
	recordAdded(record: StoredRecord): void {
		if (record.recordType === "label") this.list.refresh([record.targetSeq]);
		if (record.recordType === "compaction") this.refreshAll = true;
	}

	refresh(keys?: Iterable<RowKey>): void {
		this.list.refresh(keys);
	}

	reset(): void {
		this.tabStop = undefined;
		this.highlight = undefined;
		this.streamingText.textContent = "";
	}

	scrollToEnd(): void {
		this.list.scrollToEnd();
	}

	updateJump(): void {
		this.jump.hidden = !this.handlers.isCurrentTab() || this.list.distanceFromEnd() < 200;
	}

	/** Scrolls a message into view and (unless `focus` is false) focuses it; `text` is marked in it (a search's words). */
	reveal(seq: number, text?: string, focus = true): void {
		const marked = this.highlight?.seq;
		this.highlight = text ? { seq, text } : undefined;
		this.tabStop = seq;
		this.list.refresh([seq, ...(marked !== undefined && marked !== seq ? [marked] : [])]);
		// The list settles its measurements over a few frames: scrolled again each, focused once (the
		// focus may have moved on meanwhile, and must not be taken back).
		let focused = !focus;
		const scroll = (tries: number) => {
			this.list.scrollToKey(seq, "center");
			const message = this.list.rowOf(seq)?.querySelector<HTMLElement>("[data-message]");
			if (!focused && message) {
				message.focus({ preventScroll: true });
				focused = true;
			}
			if (tries > 0) requestAnimationFrame(() => scroll(tries - 1));
		};
		scroll(3);
	}

	/** Focuses the transcript's Tab stop (after the find bar closed). */
	focusStop(): void {
		const key = this.stopKey();
		const message = key === undefined ? undefined : this.list.rowOf(key)?.querySelector<HTMLElement>("[data-message]");
		(message ?? this.scroller).focus({ preventScroll: true });
	}

	private renderRow(row: TranscriptRow): HTMLElement {
		const element = renderRow(row, this.context);
		for (const inner of element.querySelectorAll<HTMLElement>(INNER_FOCUSABLE)) inner.tabIndex = -1;
		if (this.highlight && row.key === this.highlight.seq) markText(element, this.highlight.text);
		return element;
	}

	/** The message that should be the Tab stop: the one last focused, else the latest one. */
	private stopKey(): RowKey | undefined {
		if (this.tabStop !== undefined && this.list.indexOf(this.tabStop) >= 0) return this.tabStop;
		for (let index = this.list.length - 1; index >= 0; index--) {
			const row = this.list.itemAt(index);
			if (row?.kind === "record" && row.record.recordType === "message") return row.key;
		}
		return undefined;
	}

	/** Exactly one Tab stop: the stop message when drawn, else the transcript itself (which hands the focus on). */
	private syncTabStop(): void {
		const stop = this.stopKey();
		let drawn = false;
		for (const [key, row] of this.list.mountedRows()) {
			const message = row.querySelector<HTMLElement>("[data-message]");
			if (!message) continue;
			message.tabIndex = key === stop ? 0 : -1;
			if (key === stop) drawn = true;
		}
		if (drawn) this.scroller.removeAttribute("tabindex");
		else this.scroller.tabIndex = 0;
	}

	private onFocus(event: FocusEvent): void {
		const target = event.target as HTMLElement;
		if (target === this.scroller) {
			// The stop message is not drawn (scrolled away): the latest one in view takes the focus.
			const visible = this.list.visibleItems();
			for (let index = visible.length - 1; index >= 0; index--) {
				const key = visible[index]?.key as RowKey;
				const message = this.list.rowOf(key)?.querySelector<HTMLElement>("[data-message]");
				if (message) {
					this.tabStop = key as number;
					message.focus({ preventScroll: true });
					return;
				}
			}
			return;
		}
		const row = target.closest<HTMLElement>(".row[data-seq]");
		if (!row) return;
		this.tabStop = Number(row.dataset.seq);
		for (const inner of row.querySelectorAll<HTMLElement>(INNER_FOCUSABLE)) inner.tabIndex = 0;
		this.syncTabStop();
	}

	private onBlur(event: FocusEvent): void {
		const row = (event.target as HTMLElement).closest<HTMLElement>(".row[data-seq]");
		if (!row || row.contains(event.relatedTarget as Node | null)) return;
		for (const inner of row.querySelectorAll<HTMLElement>(INNER_FOCUSABLE)) inner.tabIndex = -1;
	}

	/** Up/Down (and Home/End, Page Up/Down) move between messages while one has the focus. */
	private onKey(event: KeyboardEvent): void {
		const target = event.target as HTMLElement;
		if (!target.matches("[data-message]")) return;
		const messages: number[] = [];
		for (let index = 0; index < this.list.length; index++) {
			const row = this.list.itemAt(index);
			if (row?.kind === "record" && row.record.recordType === "message") messages.push(row.key);
		}
		const at = messages.indexOf(Number(target.closest<HTMLElement>(".row")?.dataset.seq));
		const step: Record<string, number> = { ArrowDown: 1, ArrowUp: -1, PageDown: 5, PageUp: -5 };
		const next =
			event.key === "Home"
				? 0
				: event.key === "End"
					? messages.length - 1
					: step[event.key] !== undefined
						? at + (step[event.key] as number)
						: undefined;
		if (next === undefined || at < 0) return;
		event.preventDefault();
		const seq = messages[Math.max(0, Math.min(messages.length - 1, next))];
		if (seq !== undefined) this.reveal(seq);
	}

	private onClick(event: MouseEvent): void {
		const target = event.target as HTMLElement;
		const copy = target.closest("[data-copy-code]");
		if (copy) {
			const code = copy.closest(".code-block")?.querySelector("code, pre");
			// The code as written: without the line break that ends every fenced block.
			this.handlers.onCopy((code?.textContent ?? "").replace(/\n$/, ""), "Code copied.");
			return;
		}
		const image = target.closest<HTMLImageElement>("img.message-image");
		if (image) enlarge(image);
	}
}

/** Shows an image at full size in a dialog (Esc, a click or Close ends it). */
function enlarge(image: HTMLImageElement): void {
	const dialog = document.getElementById("image-dialog") as HTMLDialogElement | null;
	const full = dialog?.querySelector<HTMLImageElement>("img");
	if (!dialog || !full) return;
	full.src = image.src;
	full.alt = image.alt.replace(", click to enlarge", "");
	dialog.showModal();
}
