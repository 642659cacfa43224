import { contentText, type SessionTree, type StoredRecord } from "@agent/session-format/reading";
import { h } from "./dom.js";
import { preview } from "./format.js";
import { type TreeLine, treeLines } from "./tree-lines.js";
import { VirtualList } from "./virtual-list.js";

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
		// Indented by padding inside a full-width row: a deep branch never runs off the screen.
		const row = h("div", { class: "tree-row" }, button);
		row.style.setProperty("--depth", String(line.depth));
		return row;
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
