import type { CompactionRecord, SessionTree, StoredRecord } from "@agent/session-format";
import { siblingsOf } from "./branches.js";
import { renderBlocks, renderToolResult } from "./content-view.js";
import { type Child, h, replaceChildren } from "./dom.js";
import { compactNumber } from "./format.js";

export interface TranscriptOptions {
	tree: SessionTree;
	/** The leaf whose path is shown. */
	leaf: number | null;
	/** The session's active leaf (where the next message goes). */
	activeLeaf: number | null;
	selectedSeq: number | null;
	onSelect: (seq: number) => void;
	/** Switch to the sibling branch starting at `seq`. */
	onSwitch: (seq: number) => void;
}

/** Renders the path to the leaf: messages, folded tool calls and results, compaction dividers, branch switchers. */
export function renderTranscript(container: HTMLElement, options: TranscriptOptions): void {
	const { tree, leaf } = options;
	const path = leaf === null ? [] : tree.path(leaf);
	const labels = tree.labels();
	const rows: Child[] = [];
	for (const record of path) {
		const siblings = siblingsOf(tree, record.seq);
		if (siblings.length > 1) rows.push(branchSwitcher(record.seq, siblings, options.onSwitch));
		const row = renderRecord(record);
		if (!row) continue;
		row.dataset.seq = String(record.seq);
		if (record.seq === options.selectedSeq) row.classList.add("selected");
		const label = labels.get(record.seq);
		if (label) row.prepend(h("span", { class: "label-chip" }, label));
		row.addEventListener("click", (event) => {
			if ((event.target as HTMLElement).closest("summary, a, button")) return;
			options.onSelect(record.seq);
		});
		rows.push(row);
	}
	if (path.length === 0) rows.push(h("p", { class: "hint" }, "No messages yet. Say something below."));
	if (leaf !== null && options.activeLeaf !== null && leaf !== options.activeLeaf) {
		rows.push(
			h(
				"p",
				{ class: "hint" },
				`You are viewing another branch; new messages continue the active branch (#${options.activeLeaf}).`,
			),
		);
	}
	replaceChildren(container, ...rows);
}

function branchSwitcher(seq: number, siblings: readonly number[], onSwitch: (seq: number) => void): HTMLElement {
	const index = siblings.indexOf(seq);
	const previous = siblings[index - 1];
	const next = siblings[index + 1];
	return h(
		"div",
		{ class: "branch-switcher", "data-testid": "branch-switcher" },
		h(
			"button",
			{
				type: "button",
				class: "link",
				"aria-label": "previous branch",
				onclick: () => previous !== undefined && onSwitch(previous),
				disabled: previous === undefined,
			},
			"‹",
		),
		`branch ${index + 1} of ${siblings.length}`,
		h(
			"button",
			{
				type: "button",
				class: "link",
				"aria-label": "next branch",
				onclick: () => next !== undefined && onSwitch(next),
				disabled: next === undefined,
			},
			"›",
		),
	);
}

function renderRecord(record: StoredRecord): HTMLElement | undefined {
	switch (record.recordType) {
		case "message":
			if (record.role === "toolResult") {
				return h(
					"article",
					{ class: "record tool", "data-role": "toolResult" },
					renderToolResult(record.content, {
						...(record.toolName ? { toolName: record.toolName } : {}),
						...(record.isError ? { isError: true } : {}),
					}),
				);
			}
			return h(
				"article",
				{ class: `record message ${record.role}`, "data-role": record.role },
				h("div", { class: "who" }, record.role === "user" ? "You" : (record.model ?? "assistant")),
				...renderBlocks(record.content),
				record.errorMessage ? h("div", { class: "error-text" }, record.errorMessage) : null,
			);
		case "compaction":
			return compactionDivider(record);
		case "branch_summary":
			return h(
				"article",
				{ class: "record divider" },
				h(
					"details",
					{ class: "fold" },
					h("summary", null, `Came back from branch #${record.fromSeq}`),
					h("pre", { class: "summary-text" }, record.summary),
				),
			);
		case "custom_message":
			if (!record.display) return undefined;
			return h(
				"article",
				{ class: "record note" },
				h("div", { class: "who" }, record.customType),
				...renderBlocks(record.content),
			);
		case "session_info":
			return record.name ? h("article", { class: "record note" }, `Named “${record.name}”`) : undefined;
		case "model_change":
			return h("article", { class: "record note" }, `Model → ${record.provider}/${record.modelId}`);
		case "thinking_level_change":
			return h("article", { class: "record note" }, `Thinking → ${record.thinkingLevel}`);
		case "opaque":
			return h(
				"article",
				{ class: "record note" },
				`A “${record.declaredType}” record this page does not know (kept as is)`,
			);
		default:
			return undefined;
	}
}

function compactionDivider(record: CompactionRecord): HTMLElement {
	const files = [
		...record.modifiedFiles.map((file) => `modified ${file}`),
		...record.readFiles.map((file) => `read ${file}`),
	];
	return h(
		"article",
		{ class: "record divider compaction", "data-testid": "compaction" },
		h(
			"details",
			{ class: "fold" },
			h(
				"summary",
				null,
				`Compacted: ${compactNumber(record.tokensBefore)} tokens summarized`,
				record.trigger ? ` (${record.trigger})` : "",
				`, messages from #${record.firstKeptSeq} kept`,
			),
			h("pre", { class: "summary-text" }, record.summary),
			files.length > 0 ? h("ul", { class: "files" }, ...files.map((file) => h("li", null, file))) : null,
		),
	);
}
