import type { ContextMessage } from "@agent/session-format/reading";
import type { ContextView } from "./api.js";
import { renderBlocks, renderToolResult } from "./content-view.js";
import { h } from "./dom.js";
import { compactNumber } from "./format.js";
import { VirtualList } from "./virtual-list.js";

const ORIGIN_LABELS: Record<string, string> = {
	message: "",
	compaction_summary: "compaction summary",
	branch_summary: "branch summary",
	custom_message: "extension",
	ephemeral: "ephemeral",
};

type ContextRow =
	| { kind: "gauge"; view: ContextView }
	| { kind: "system"; text: string }
	| { kind: "message"; index: number; message: ContextMessage };

/** At this share of the model's window the gauge warns, and offers Compact. */
const FULL_SHARE = 0.8;

/**
 * What the LLM sees for a leaf, as a virtualized list: the token gauge (with Compact offered once
 * the context fills most of the window), the system prompt, the messages.
 */
export class ContextPanel {
	private readonly list: VirtualList<ContextRow>;

	constructor(container: HTMLElement, handlers: { onCompact(): void }) {
		this.list = new VirtualList<ContextRow>({
			scroller: container,
			keyOf: (row) => (row.kind === "message" ? row.index : row.kind),
			estimateSize: (row) => (row.kind === "message" ? 80 : 60),
			render: (row) => renderContextRow(row, handlers.onCompact),
			gap: 10,
		});
	}

	show(view: ContextView): void {
		const rows: ContextRow[] = [{ kind: "gauge", view }];
		if (view.context.systemPrompt) rows.push({ kind: "system", text: view.context.systemPrompt });
		for (const [index, message] of view.context.messages.entries()) rows.push({ kind: "message", index, message });
		this.list.setItems(rows);
		this.list.refresh();
	}
}

function renderContextRow(row: ContextRow, onCompact: () => void): HTMLElement {
	switch (row.kind) {
		case "gauge":
			return gauge(row.view, onCompact);
		case "system":
			return h("details", { class: "fold system" }, h("summary", null, "system prompt"), h("pre", null, row.text));
		case "message":
			return contextMessage(row.message);
	}
}

function gauge(view: ContextView, onCompact: () => void): HTMLElement {
	const context = view.context;
	// The true share, over 100% when the context no longer fits (the bar stops at full).
	const share = view.contextWindow ? context.estimatedTokens / view.contextWindow : undefined;
	const full = share !== undefined && share >= FULL_SHARE;
	return h(
		"div",
		{ class: `gauge${full ? " full" : ""}`, "data-testid": "token-estimate" },
		h(
			"div",
			{ class: "gauge-text" },
			`≈ ${compactNumber(context.estimatedTokens)} tokens`,
			view.contextWindow ? ` of ${compactNumber(view.contextWindow)} (${Math.round((share ?? 0) * 100)}%)` : "",
			` · ${context.messages.length} messages · model ${view.model}`,
			context.droppedToolResults > 0 ? ` · ${context.droppedToolResults} orphaned tool results left out` : "",
		),
		share !== undefined ? h("div", { class: "gauge-bar" }, barFill(Math.min(1, share))) : null,
		full
			? h(
					"div",
					{ class: "gauge-full" },
					share >= 1
						? "The context is larger than the model's window: the next reply compacts first, or fails. "
						: "The context is nearly full: compacting now keeps the next replies quick. ",
					h(
						"button",
						{ type: "button", class: "primary", "data-testid": "context-compact", onclick: () => onCompact() },
						"Compact now",
					),
				)
			: null,
	);
}

function contextMessage(message: ContextMessage): HTMLElement {
	const origin = ORIGIN_LABELS[message.origin] ?? message.origin;
	const body =
		message.role === "toolResult"
			? [
					renderToolResult(message.content, {
						...(message.toolName ? { toolName: message.toolName } : {}),
						...(message.isError ? { isError: true } : {}),
					}),
				]
			: renderBlocks(message.content);
	return h(
		"article",
		{ class: `record message ${message.role}${message.origin !== "message" ? " synthetic" : ""}` },
		h(
			"div",
			{ class: "who" },
			message.role,
			origin ? h("span", { class: "origin" }, origin) : null,
			message.seq !== undefined ? h("span", { class: "seq" }, `#${message.seq}`) : null,
		),
		...body,
	);
}

function barFill(share: number): HTMLElement {
	const fill = h("div", { class: `gauge-fill${share > 0.8 ? " high" : ""}` });
	fill.style.width = `${(share * 100).toFixed(1)}%`;
	return fill;
}
