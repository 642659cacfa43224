import { contentText, type SessionTree, type StoredRecord } from "@agent/session-format/reading";
import { byId } from "./dom.js";
import { hasRow } from "./shown-records.js";

export interface FindHandlers {
	tree(): SessionTree;
	/** True once every record of the session is loaded. */
	complete(): boolean;
	/** Shows a message on its branch, selected, with `text` marked. */
	show(seq: number, text: string): void;
	/** The find bar closed: the focus goes back to the transcript. */
	closed(): void;
}

/** The searchable text of a record, lowercased (kept per record: a long session is searched again as you type). */
const lowered = new WeakMap<StoredRecord, string>();
function textOf(record: StoredRecord): string {
	let text = lowered.get(record);
	if (text === undefined) {
		text =
			record.recordType === "message" || record.recordType === "custom_message"
				? contentText(record.content)
				: record.recordType === "compaction" || record.recordType === "branch_summary"
					? record.summary
					: "";
		text = text.replace(/\s+/g, " ").toLowerCase();
		lowered.set(record, text);
	}
	return text;
}

/**
 * Ctrl/Cmd+F in an open session: finds a text in every record of the session, on every branch,
 * not only in the rows the page has drawn (the browser's own find sees only those). Enter goes to
 * the next match and Shift+Enter to the one before, each shown on its branch with the text
 * marked; Esc closes.
 */
export class SessionFind {
	private readonly el = {
		bar: byId("find-bar"),
		input: byId<HTMLInputElement>("find-input"),
		count: byId("find-count"),
		next: byId<HTMLButtonElement>("find-next"),
		previous: byId<HTMLButtonElement>("find-previous"),
		close: byId<HTMLButtonElement>("find-close"),
	};
	private matches: number[] = [];
	private at = -1;
	private timer: ReturnType<typeof setTimeout> | undefined;

	constructor(private readonly handlers: FindHandlers) {
		const el = this.el;
		el.input.addEventListener("input", () => {
			clearTimeout(this.timer);
			this.timer = setTimeout(() => this.search(), 150);
		});
		el.input.addEventListener("keydown", (event) => {
			if (event.key === "Enter") {
				event.preventDefault();
				this.step(event.shiftKey ? -1 : 1);
			}
			if (event.key === "Escape") {
				event.preventDefault();
				event.stopPropagation();
				this.close();
			}
		});
		el.next.addEventListener("click", () => this.step(1));
		el.previous.addEventListener("click", () => this.step(-1));
		el.close.addEventListener("click", () => this.close());
	}

	open(): void {
		this.el.bar.hidden = false;
		this.el.input.focus();
		this.el.input.select();
		if (this.el.input.value.trim()) this.search();
	}

	close(): void {
		if (this.el.bar.hidden) return;
		this.el.bar.hidden = true;
		this.handlers.closed();
	}

	/** The session changed: nothing found any more. */
	reset(): void {
		this.matches = [];
		this.at = -1;
		this.el.count.textContent = "";
		this.el.bar.hidden = true;
	}

	private search(): void {
		const needle = this.el.input.value.trim().replace(/\s+/g, " ").toLowerCase();
		this.matches = [];
		this.at = -1;
		if (needle.length > 0) {
			for (const record of this.handlers.tree().records()) {
				if (hasRow(record) && textOf(record).includes(needle)) this.matches.push(record.seq);
			}
		}
		this.renderCount();
		if (this.matches.length > 0) this.step(1);
	}

	private step(direction: 1 | -1): void {
		const count = this.matches.length;
		if (count === 0) return;
		this.at = this.at < 0 ? (direction === 1 ? 0 : count - 1) : (this.at + direction + count) % count;
		this.renderCount();
		this.handlers.show(this.matches[this.at] as number, this.el.input.value.trim());
		this.el.input.focus();
	}

	private renderCount(): void {
		const count = this.matches.length;
		const more = this.handlers.complete() ? "" : " (older messages still loading)";
		this.el.count.textContent =
			this.el.input.value.trim().length === 0
				? ""
				: count === 0
					? `no match${more}`
					: `${this.at < 0 ? "–" : (this.at + 1).toLocaleString("en-US")} of ${count.toLocaleString("en-US")}${more}`;
	}
}
