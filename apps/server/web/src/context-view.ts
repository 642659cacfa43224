import type { ContextView } from "./api.js";
import { renderBlocks, renderToolResult } from "./content-view.js";
import { h, replaceChildren } from "./dom.js";
import { compactNumber } from "./format.js";

const ORIGIN_LABELS: Record<string, string> = {
	message: "",
	compaction_summary: "compaction summary",
	branch_summary: "branch summary",
	custom_message: "extension",
	ephemeral: "ephemeral",
};

/** Renders what the LLM sees for a leaf: the token estimate against the window, the system prompt, the messages. */
export function renderContext(container: HTMLElement, view: ContextView): void {
	const context = view.context;
	const share = view.contextWindow ? Math.min(1, context.estimatedTokens / view.contextWindow) : undefined;
	const gauge = h(
		"div",
		{ class: "gauge", "data-testid": "token-estimate" },
		h(
			"div",
			{ class: "gauge-text" },
			`≈ ${compactNumber(context.estimatedTokens)} tokens`,
			view.contextWindow ? ` of ${compactNumber(view.contextWindow)} (${Math.round((share ?? 0) * 100)}%)` : "",
			` · ${context.messages.length} messages · model ${view.model}`,
			context.droppedToolResults > 0 ? ` · ${context.droppedToolResults} orphaned tool results left out` : "",
		),
		share !== undefined ? h("div", { class: "gauge-bar" }, barFill(share)) : null,
	);
	const system = context.systemPrompt
		? h("details", { class: "fold system" }, h("summary", null, "system prompt"), h("pre", null, context.systemPrompt))
		: null;
	const messages = context.messages.map((message) => {
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
	});
	replaceChildren(container, gauge, system, ...messages);
}

function barFill(share: number): HTMLElement {
	const fill = h("div", { class: `gauge-fill${share > 0.8 ? " high" : ""}` });
	fill.style.width = `${(share * 100).toFixed(1)}%`;
	return fill;
}
