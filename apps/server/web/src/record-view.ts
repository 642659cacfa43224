import type { CompactionRecord, MessageRecord, StoredRecord } from "@agent/session-format/reading";
import { renderBlocks, renderToolResult } from "./content-view.js";
import { h } from "./dom.js";
import { describeError } from "./error-text.js";
import { compactNumber, formatCost, fullDate, shortTime } from "./format.js";
import { markdownElement } from "./markdown-view.js";
import type { ToolResults, TranscriptRow } from "./transcript.js";

/** What can be done from one message. */
export type MessageAction = "branch" | "fork" | "label" | "edit" | "retry" | "copy";

export interface RowContext {
	selectedSeq: number | null;
	labels: ReadonlyMap<number, string>;
	/** The streaming reply's row (one element, kept while the reply grows). */
	streamingRow: HTMLElement;
	onSelect(seq: number): void;
	/** Show the sibling branch starting at `seq`. */
	onSwitch(seq: number): void;
	onAction(action: MessageAction, record: StoredRecord): void;
}

/** Draws one transcript row. */
export function renderRow(row: TranscriptRow, context: RowContext): HTMLElement {
	switch (row.kind) {
		case "streaming":
			return context.streamingRow;
		case "older":
			return h("p", { class: "hint", "data-testid": "loading-older" }, "Loading earlier messages…");
		case "hint":
			return h("p", { class: "hint" }, row.text);
		case "switcher":
			return branchSwitcher(row.seq, row.siblings, context.onSwitch);
		case "compaction":
			return h("div", { class: "row", "data-seq": row.key }, compactionDivider(row.record));
		case "record":
			return recordRow(row, context);
	}
}

function recordRow(row: Extract<TranscriptRow, { kind: "record" }>, context: RowContext): HTMLElement {
	const record = row.record;
	const body = recordBody(record, context, row.results);
	const selected = record.seq === context.selectedSeq;
	const wrapper = h(
		"div",
		{ class: `row${selected ? " selected" : ""}${row.summarized ? " summarized" : ""}`, "data-seq": record.seq },
		body,
	);
	if (row.summarized) body.title = "Summarized by a compaction: the model sees the summary (the divider below) instead";
	const label = context.labels.get(record.seq);
	if (label) body.prepend(h("span", { class: "label-chip", title: `label: ${label}` }, label));
	if (record.recordType === "message") {
		body.setAttribute("tabindex", "-1");
		body.setAttribute("data-message", "");
		body.setAttribute(
			"aria-label",
			`${record.role === "user" ? "your" : record.role} message #${record.seq}${selected ? ", selected" : ""}`,
		);
		body.addEventListener("click", (event) => {
			if ((event.target as HTMLElement).closest("summary, a, button, input, img")) return;
			context.onSelect(record.seq);
		});
		body.addEventListener("keydown", (event) => {
			if (event.target !== body || (event.key !== "Enter" && event.key !== " ")) return;
			event.preventDefault();
			context.onSelect(record.seq);
		});
		if (record.role !== "toolResult") wrapper.append(actionBar(record, context));
	}
	return wrapper;
}

/** The message's actions: shown on hover, when the message has the focus, and when it is selected. */
function actionBar(record: MessageRecord, context: RowContext): HTMLElement {
	const act = (action: MessageAction) => () => context.onAction(action, record);
	return h(
		"div",
		{
			class: "message-actions",
			"data-testid": "message-actions",
			role: "group",
			"aria-label": `actions for #${record.seq}`,
		},
		record.role === "user" ? h("button", { type: "button", onclick: act("edit") }, "Edit & resend") : null,
		h(
			"button",
			{ type: "button", onclick: act("branch"), title: "The next message continues from here" },
			"Branch here",
		),
		h(
			"button",
			{ type: "button", onclick: act("fork"), title: "A new session with the conversation up to here" },
			"Fork",
		),
		h("button", { type: "button", onclick: act("label") }, "Label"),
		h("button", { type: "button", onclick: act("copy") }, "Copy"),
	);
}

function recordBody(record: StoredRecord, context: RowContext, results?: ToolResults): HTMLElement {
	switch (record.recordType) {
		case "message":
			return messageBody(record, context, results);
		case "branch_summary":
			return h(
				"article",
				{ class: "record divider" },
				h(
					"details",
					{ class: "fold" },
					h("summary", null, `Came back from branch #${record.fromSeq}`),
					markdownElement(record.summary, "summary-text"),
				),
			);
		case "custom_message":
			return h(
				"article",
				{ class: "record message custom" },
				h("div", { class: "who" }, record.customType),
				...renderBlocks(record.content),
			);
		case "session_info":
			return h("article", { class: "record note" }, `Named “${record.name ?? ""}”`);
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
			return h("article", { class: "record note" }, record.recordType);
	}
}

function messageBody(record: MessageRecord, context: RowContext, results?: ToolResults): HTMLElement {
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
	// A reply stopped on request (Stop, Esc, the server shutting down) keeps what it wrote: not a failure.
	const stopped = record.role === "assistant" && record.stopReason === "aborted";
	const failed =
		record.role === "assistant" && !stopped && (record.stopReason === "error" || record.errorMessage !== undefined);
	return h(
		"article",
		{ class: `record message ${record.role}${stopped ? " stopped" : ""}`, "data-role": record.role },
		messageHeader(record),
		...renderBlocks(record.content, results),
		stopped
			? h("div", { class: "stopped-text", "data-testid": "stopped" }, "Stopped: the reply ends here, as you asked.")
			: null,
		failed && record.errorMessage
			? h(
					"div",
					{ class: "error-text", title: record.errorMessage },
					describeError(
						undefined,
						record.errorMessage,
						record.provider ? `${record.provider}/${record.model ?? ""}` : record.model,
					),
				)
			: null,
		failed || stopped
			? h(
					"button",
					{
						type: "button",
						class: failed ? "retry" : "retry quiet-retry",
						"data-testid": "retry",
						onclick: () => context.onAction("retry", record),
						title: "Send the same message again, on a new branch from where it was sent",
					},
					failed ? "Retry" : "Regenerate",
				)
			: null,
	);
}

/** Who wrote it, when, and for replies the tokens and cost. */
function messageHeader(record: MessageRecord): HTMLElement {
	const who = record.role === "user" ? "You" : (record.model ?? "assistant");
	const usage = record.usage;
	const cost = formatCost(usage?.cost?.total);
	const usageText = usage
		? `${compactNumber(usage.input + usage.cacheRead)} in · ${compactNumber(usage.output)} out${cost ? ` · ${cost}` : ""}`
		: "";
	return h(
		"div",
		{ class: "who" },
		h("span", { class: "author" }, who),
		h(
			"time",
			{ class: "when", datetime: record.timestamp, title: fullDate(record.timestamp) },
			shortTime(record.timestamp),
		),
		usageText
			? h(
					"span",
					{
						class: "usage",
						"data-testid": "usage",
						title: `${usage?.totalTokens ?? 0} tokens (cache read ${usage?.cacheRead ?? 0}, cache write ${usage?.cacheWrite ?? 0})`,
					},
					usageText,
				)
			: null,
		h("span", { class: "seq" }, `#${record.seq}`),
	);
}

function branchSwitcher(seq: number, siblings: readonly number[], onSwitch: (seq: number) => void): HTMLElement {
	const index = siblings.indexOf(seq);
	const previous = siblings[index - 1];
	const next = siblings[index + 1];
	const arrow = (label: string, target: number | undefined, text: string) =>
		h(
			"button",
			{
				type: "button",
				class: "link",
				"aria-label": label,
				title: target === undefined ? `No ${label} here` : `Show the ${label}`,
				onclick: () => target !== undefined && onSwitch(target),
				disabled: target === undefined,
			},
			text,
		);
	return h(
		"div",
		{ class: "branch-switcher", "data-testid": "branch-switcher" },
		arrow("previous branch", previous, "‹"),
		`branch ${index + 1} of ${siblings.length}`,
		arrow("next branch", next, "›"),
	);
}

/** A compaction, just above the first message it kept: what came before is the summary the model sees. */
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
				`Compacted (#${record.seq}${record.trigger ? `, ${record.trigger}` : ""}): the messages above, ≈ ${compactNumber(record.tokensBefore)} tokens, are a summary for the model; it sees everything from here on`,
			),
			markdownElement(record.summary, "summary-text"),
			files.length > 0 ? h("ul", { class: "files" }, ...files.map((file) => h("li", null, file))) : null,
		),
	);
}
