import { contentText, type SessionTree, type StoredRecord } from "@agent/session-format";
import { h } from "./dom.js";
import { preview } from "./format.js";
import { hasRow } from "./transcript.js";
import { VirtualList } from "./virtual-list.js";

/** One line of the tree: a record and how deep it sits (one level per branch point above it). */
export interface TreeLine {
	record: StoredRecord;
	depth: number;
	/** The first record of a branch (a child of a branch point). */
	branchStart: boolean;
}

/**
 * The records of every branch in depth-first order, each branch indented under its branch point
 * (pi's /tree). Records without a row of their own (labels, names, extension state) are not
 * lines, so they are never shown as branch tips.
 */
export function treeLines(tree: SessionTree): TreeLine[] {
	const lines: TreeLine[] = [];
	const stack: Array<{ seq: number; depth: number; branchStart: boolean }> = [];
	const pushChildren = (children: readonly number[], depth: number) => {
		const sorted = [...children].sort((a, b) => b - a);
		const split = sorted.length > 1;
		for (const seq of sorted) stack.push({ seq, depth: split ? depth + 1 : depth, branchStart: split });
	};
	pushChildren(tree.roots(), -1);
	for (const start of stack) if (start.depth < 0) start.depth = 0;
	while (stack.length > 0) {
		const { seq, depth, branchStart } = stack.pop() as { seq: number; depth: number; branchStart: boolean };
		const record = tree.get(seq);
		if (!record) continue;
		if (hasRow(record)) lines.push({ record, depth, branchStart });
		pushChildren(tree.children(seq), depth);
	}
	return lines;
}

export interface TreeHandlers {
	/** Show the record in the transcript, on its branch, selected. */
	onPick(seq: number): void;
	activePath(): ReadonlySet<number>;
	labels(): ReadonlyMap<number, string>;
}

/** The tree tab: every branch as an indented, virtualized list; Enter or a click opens a record. */
export class TreeView {
	private readonly list: VirtualList<TreeLine>;

	constructor(
		container: HTMLElement,
		private readonly handlers: TreeHandlers,
	) {
		this.list = new VirtualList<TreeLine>({
			scroller: container,
			keyOf: (line) => line.record.seq,
			estimateSize: () => 30,
			render: (line) => this.renderLine(line),
		});
	}

	show(tree: SessionTree): void {
		this.list.setItems(treeLines(tree));
		this.list.refresh();
	}

	private renderLine(line: TreeLine): HTMLElement {
		const record = line.record;
		const onPath = this.handlers.activePath().has(record.seq);
		const label = this.handlers.labels().get(record.seq);
		const button = h(
			"button",
			{
				type: "button",
				class: `tree-line${onPath ? " on-path" : ""}${line.branchStart ? " branch-start" : ""}`,
				"data-testid": "tree-line",
				"data-seq": record.seq,
				title: "Show in the transcript (then branch, fork or label from it)",
				onclick: () => this.handlers.onPick(record.seq),
			},
			h("span", { class: "tree-mark" }, onPath ? "●" : "○"),
			h("span", { class: "tree-role" }, roleOf(record)),
			h("span", { class: "tree-text" }, describe(record)),
			label ? h("span", { class: "label-chip inline" }, label) : null,
			h("span", { class: "seq" }, `#${record.seq}`),
		);
		button.style.marginLeft = `${Math.min(line.depth, 12) * 1.1}rem`;
		return h("div", { class: "tree-row" }, button);
	}
}

function roleOf(record: StoredRecord): string {
	if (record.recordType === "message") return record.role === "toolResult" ? "tool" : record.role;
	return record.recordType.replace(/_/g, " ");
}

function describe(record: StoredRecord): string {
	switch (record.recordType) {
		case "message":
			return record.role === "toolResult"
				? `${record.toolName ?? "tool"}: ${preview(contentText(record.content), 60)}`
				: preview(contentText(record.content), 90) || "(no text)";
		case "compaction":
			return preview(record.summary, 80);
		case "branch_summary":
			return preview(record.summary, 80);
		case "session_info":
			return record.name ?? "";
		case "model_change":
			return `${record.provider}/${record.modelId}`;
		case "thinking_level_change":
			return record.thinkingLevel;
		default:
			return "";
	}
}
