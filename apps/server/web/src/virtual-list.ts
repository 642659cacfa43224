import {
	elementScroll,
	observeElementOffset,
	observeElementRect,
	type VirtualItem,
	Virtualizer,
} from "@tanstack/virtual-core";
import { h } from "./dom.js";

export type RowKey = string | number;

export interface VirtualListOptions<T> {
	/** The element that scrolls; the list owns its children. */
	scroller: HTMLElement;
	keyOf: (item: T) => RowKey;
	/** A first guess of a row's height in px, before it is measured. */
	estimateSize: (item: T) => number;
	render: (item: T) => HTMLElement;
	/** Keep the view at the end as rows are appended or grow while it is there (a chat). */
	followEnd?: boolean;
	gap?: number;
	/** Called on every scroll and re-layout (e.g. to show "Jump to latest"). */
	onChange?: () => void;
}

/**
 * A list of any length with only the rows in view (and a few around them) in the DOM, measured
 * as they are drawn (@tanstack/virtual-core does the windowing, measuring and scroll anchoring).
 * A row's element is built once while it stays in view: setting new items re-draws only rows
 * whose key is new, or those `refresh` names.
 */
export class VirtualList<T> {
	private items: readonly T[] = [];
	private readonly inner = h("div", { class: "virtual-inner" });
	private readonly mounted = new Map<RowKey, HTMLElement>();
	private readonly virtualizer: Virtualizer<HTMLElement, HTMLElement>;
	private readonly unmount: () => void;

	constructor(private readonly options: VirtualListOptions<T>) {
		options.scroller.replaceChildren(this.inner);
		this.virtualizer = new Virtualizer<HTMLElement, HTMLElement>({
			count: 0,
			getScrollElement: () => options.scroller,
			estimateSize: (index) => options.estimateSize(this.items[index] as T),
			getItemKey: (index) => options.keyOf(this.items[index] as T),
			observeElementRect,
			observeElementOffset,
			scrollToFn: elementScroll,
			overscan: 6,
			gap: options.gap ?? 0,
			anchorTo: options.followEnd ? "end" : "start",
			followOnAppend: options.followEnd ?? false,
			scrollEndThreshold: 32,
			onChange: () => this.paint(),
		});
		this.unmount = this.virtualizer._didMount();
		this.virtualizer._willUpdate();
		// The reader moving away from the end unpins it; coming back to the end pins it again.
		const scroller = options.scroller;
		const unpin = () => {
			this.pinnedEnd = false;
		};
		scroller.addEventListener("wheel", (event) => event.deltaY < 0 && unpin(), { passive: true });
		scroller.addEventListener("touchstart", unpin, { passive: true });
		scroller.addEventListener("mousedown", unpin);
		scroller.addEventListener("keydown", unpin);
		scroller.addEventListener("scroll", () => {
			if (scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight <= 32) this.pinnedEnd = true;
		});
	}

	/** True from scrollToEnd (or the reader reaching the end) until the reader scrolls away. */
	private pinnedEnd = false;

	get length(): number {
		return this.items.length;
	}

	/** Replaces the items; rows whose keys stay keep their elements (and the view its anchor). */
	setItems(items: readonly T[]): void {
		const anchor = this.anchor();
		// A scroll still settling targets an index, which means another row once rows are added above.
		this.virtualizer.cancelScroll();
		this.items = items;
		// A new key function for every new list: the virtualizer keeps its measurements (and their
		// keys) while its options stay the same, so a list re-sorted to the same length (a session
		// moving to the top) would keep the old keys by position and draw one row twice and lose
		// another. Measured sizes are kept by key, so nothing is measured again.
		this.virtualizer.setOptions({
			...this.virtualizer.options,
			count: items.length,
			getItemKey: (index) => this.options.keyOf(items[index] as T),
		});
		// The new height first: keeping the view anchored scrolls, which the old height would clamp.
		this.inner.style.height = `${this.virtualizer.getTotalSize()}px`;
		this.virtualizer._willUpdate();
		this.paint();
		this.keep(anchor);
	}

	/** Where the view is: at the end, or a row in view and how far into it the top of the view is. */
	private anchor(): { atEnd: boolean; key?: RowKey; offset: number } {
		const scroller = this.options.scroller;
		const top = scroller.scrollTop;
		const atEnd =
			this.items.length > 0 && (this.pinnedEnd || scroller.scrollHeight - top - scroller.clientHeight <= 32);
		const first = this.virtualizer.getVirtualItems().find((item) => item.end > top);
		return first ? { atEnd, key: first.key as RowKey, offset: top - first.start } : { atEnd, offset: 0 };
	}

	/**
	 * Keeps the view where it was after the items changed (rows added above, as older pages come
	 * in, must not move what the reader sees): at the end when it was there (and the list follows
	 * the end), else on the same row. The virtualizer does this too, but not while a scroll it
	 * started is still settling.
	 */
	private keep(anchor: { atEnd: boolean; key?: RowKey; offset: number }): void {
		const scroller = this.options.scroller;
		if (anchor.atEnd && this.options.followEnd) {
			if (scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight > 1) this.scrollToEnd();
			return;
		}
		if (anchor.key === undefined) return;
		const index = this.indexOf(anchor.key);
		const start = index >= 0 ? this.virtualizer.measurementsCache[index]?.start : undefined;
		if (start === undefined) return;
		const wanted = start + anchor.offset;
		if (Math.abs(scroller.scrollTop - wanted) > 1) this.virtualizer.scrollToOffset(wanted);
	}

	/** Re-draws the rows with these keys (their content changed), or every row without keys. */
	refresh(keys?: Iterable<RowKey>): void {
		const stale = keys ? [...keys] : [...this.mounted.keys()];
		for (const key of stale) {
			this.mounted.get(key)?.remove();
			this.mounted.delete(key);
		}
		this.paint();
	}

	/** The rows drawn now, by key. */
	mountedRows(): IterableIterator<[RowKey, HTMLElement]> {
		return this.mounted.entries();
	}

	/** The element drawn for a key, if it is in view. */
	rowOf(key: RowKey): HTMLElement | undefined {
		return this.mounted.get(key);
	}

	indexOf(key: RowKey): number {
		return this.items.findIndex((item) => this.options.keyOf(item) === key);
	}

	scrollToEnd(): void {
		if (!this.options.followEnd) return;
		this.pinnedEnd = true;
		if (this.items.length > 0) this.virtualizer.scrollToIndex(this.items.length - 1, { align: "end" });
	}

	scrollToKey(key: RowKey, align: "start" | "center" | "end" = "center"): boolean {
		const index = this.indexOf(key);
		if (index < 0) return false;
		this.pinnedEnd = false;
		this.virtualizer.scrollToIndex(index, { align });
		return true;
	}

	/** How far the view is from the end, in px. */
	distanceFromEnd(): number {
		return this.virtualizer.getDistanceFromEnd();
	}

	/** The rows in view, first to last. */
	visibleItems(): VirtualItem[] {
		return this.virtualizer.getVirtualItems();
	}

	itemAt(index: number): T | undefined {
		return this.items[index];
	}

	destroy(): void {
		this.unmount();
		this.mounted.clear();
		this.inner.remove();
	}

	private painting = false;
	private repaint = false;

	/**
	 * Draws the rows in view. Measuring a row can change the layout (and call back here): such a
	 * call only asks for another pass, so rows are all placed first, then measured, never nested.
	 */
	private paint(): void {
		if (this.painting) {
			this.repaint = true;
			return;
		}
		this.painting = true;
		try {
			for (let pass = 0; pass < 5; pass++) {
				this.repaint = false;
				this.place();
				if (!this.repaint) break;
			}
		} finally {
			this.painting = false;
		}
		this.options.onChange?.();
	}

	private place(): void {
		const virtualItems = this.virtualizer.getVirtualItems();
		this.inner.style.height = `${this.virtualizer.getTotalSize()}px`;
		const inView = new Set<RowKey>();
		const rows: HTMLElement[] = [];
		for (const item of virtualItems) {
			const key = item.key as RowKey;
			inView.add(key);
			let row = this.mounted.get(key);
			if (!row) {
				row = this.options.render(this.items[item.index] as T);
				row.classList.add("virtual-row");
				this.mounted.set(key, row);
				this.inner.append(row);
			}
			row.dataset.index = String(item.index);
			row.style.transform = `translateY(${item.start}px)`;
			rows.push(row);
		}
		for (const [key, row] of this.mounted) {
			if (inView.has(key)) continue;
			row.remove();
			this.mounted.delete(key);
		}
		this.order(rows);
		for (const row of rows) this.virtualizer.measureElement(row);
	}

	/**
	 * Puts the drawn rows in the document in list order (a re-sorted list, or rows drawn above the
	 * ones there), so that screen readers and the Tab key meet them in the order they are seen.
	 * A row holding the focus that had to move gets it back.
	 */
	private order(rows: readonly HTMLElement[]): void {
		const focused = document.activeElement;
		let cursor = this.inner.firstElementChild;
		let moved = false;
		for (const row of rows) {
			if (cursor === row) {
				cursor = cursor.nextElementSibling;
				continue;
			}
			this.inner.insertBefore(row, cursor);
			moved = true;
		}
		if (moved && focused instanceof HTMLElement && this.inner.contains(focused) && document.activeElement !== focused) {
			focused.focus({ preventScroll: true });
		}
	}
}
