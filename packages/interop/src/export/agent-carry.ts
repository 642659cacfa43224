import type { ContentBlock, ContextMessage } from "@agent/session-format";

/** The agents an export writes a session for, to resume it there. */
export type AgentTarget = "claude" | "codex";

/** Image types the Anthropic API takes; another is written as a note in text. */
const CLAUDE_IMAGES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);

/**
 * Whether the thinking of an assistant message can go to `target`: only its own provider's
 * (another provider's signature or encrypted reasoning would be refused by the API when the agent
 * sends it back). Anthropic also refuses thinking without its signature.
 */
function carriesThinking(
	message: ContextMessage,
	block: Extract<ContentBlock, { type: "thinking" }>,
	target: AgentTarget,
): boolean {
	if (target === "claude") {
		const anthropic = message.api === "anthropic-messages" || message.provider === "anthropic";
		return anthropic && typeof block.thinkingSignature === "string" && block.thinkingSignature !== "";
	}
	const openai =
		message.api === "openai-responses" || message.provider === "openai" || message.provider === "openai-codex";
	return openai && (block.thinking !== "" || (block.thinkingSignature ?? "") !== "");
}

/**
 * The blocks of a context message as an export to `target` writes them, so that the agent's own
 * API takes them: on the user side text and images (Anthropic's four image types; another becomes
 * a note), on the assistant side text, tool calls and the thinking the target can carry. Fields
 * only one provider reads (text and thought signatures) are left out. Importing the export back
 * gives exactly these blocks (the round trip is property-tested).
 */
export function carriedContent(message: ContextMessage, target: AgentTarget): ContentBlock[] {
	const out: ContentBlock[] = [];
	for (const block of message.content) {
		if (block.type === "text") out.push({ type: "text", text: block.text });
		else if (block.type === "image" && message.role !== "assistant") {
			if (target === "claude" && !CLAUDE_IMAGES.has(block.mimeType))
				out.push({ type: "text", text: `[image: ${block.mimeType}]` });
			else out.push({ type: "image", data: block.data, mimeType: block.mimeType });
		} else if (block.type === "toolCall" && message.role === "assistant") {
			out.push({ type: "toolCall", id: block.id, name: block.name, arguments: block.arguments });
		} else if (block.type === "thinking" && message.role === "assistant" && carriesThinking(message, block, target)) {
			out.push(thinkingFor(block, target));
		}
	}
	return out;
}

function thinkingFor(block: Extract<ContentBlock, { type: "thinking" }>, target: AgentTarget): ContentBlock {
	const signature = block.thinkingSignature ?? "";
	if (target === "claude" && block.redacted === true)
		return { type: "thinking", thinking: "", thinkingSignature: signature, redacted: true };
	const out: ContentBlock = { type: "thinking", thinking: block.thinking };
	if (signature !== "") out.thinkingSignature = signature;
	return out;
}

/**
 * Tool call ids as both APIs accept them (letters, digits, `_` and `-`, at most 64 characters),
 * each id always mapped to the same one and no two to one: an id from another provider (with `|`,
 * `.` or `:`, or longer) would be refused when the agent sends the conversation back.
 */
export class ToolIds {
	private readonly ids = new Map<string, string>();
	private readonly taken = new Set<string>();

	of(id: string): string {
		const known = this.ids.get(id);
		if (known !== undefined) return known;
		let safe = id.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 64) || "call";
		for (let n = 2; this.taken.has(safe); n++) safe = `${safe.slice(0, 60)}_${n}`;
		this.ids.set(id, safe);
		this.taken.add(safe);
		return safe;
	}
}

/** The sources of a line id: the session's UUID with its last 12 hex digits the line's number. */
export function lineUuid(sessionId: string, n: number): string {
	return `${sessionId.slice(0, 24)}${n.toString(16).padStart(12, "0")}`;
}
