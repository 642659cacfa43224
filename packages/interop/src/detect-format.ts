import { isCopilotEvent } from "./formats/copilot-import.js";
import { parseGeminiChat } from "./formats/gemini-import.js";
import { isGeminiHeader } from "./formats/gemini-lines.js";
import { parseOpenCodeExport } from "./formats/opencode-import.js";
import { isObject } from "./json-lines.js";
import type { SourceFormat } from "./types.js";

const LINES_LOOKED_AT = 50;
const CODEX_TYPES = new Set(["session_meta", "response_item", "turn_context", "event_msg", "compacted"]);
const CLAUDE_OFF_CHAIN = new Set([
	"summary",
	"file-history-snapshot",
	"queue-operation",
	"custom-title",
	"ai-title",
	"last-prompt",
	"mode",
	"permission-mode",
]);
const FERN_TYPES = new Set(["message", "tool_call", "tool_result", "system", "compaction"]);

/**
 * The format of a session file, from its content (the first lines that tell); undefined when
 * none of the known formats fits.
 */
export function detectFormat(lines: readonly string[]): SourceFormat | undefined {
	if (isOneDocument(lines)) {
		if (parseGeminiChat(lines)) return "gemini";
		if (parseOpenCodeExport(lines)) return "opencode";
	}
	let index = 0;
	for (const text of lines) {
		if (text.trim() === "") continue;
		if (index++ >= LINES_LOOKED_AT) break;
		let value: unknown;
		try {
			value = JSON.parse(text);
		} catch {
			continue;
		}
		if (!isObject(value)) continue;
		const format = index === 1 ? (firstLineFormat(value) ?? lineFormat(value)) : lineFormat(value);
		if (format) return format;
	}
	return undefined;
}

function firstLineFormat(value: Record<string, unknown>): SourceFormat | undefined {
	if (value.type === "session" && typeof value.id === "string") return "pi";
	if (typeof value.agent === "string" && value.type === undefined && value.role === undefined) return "rfc0064";
	// Older Codex rollouts start with a bare meta line.
	if (typeof value.id === "string" && typeof value.timestamp === "string" && value.type === undefined) return "codex";
	return undefined;
}

function lineFormat(value: Record<string, unknown>): SourceFormat | undefined {
	const type = value.type;
	if (isGeminiHeader(value) || isObject(value.$set) || typeof value.$rewindTo === "string") return "gemini";
	if (isCopilotEvent(value)) return "copilot";
	if (typeof type === "string" && CODEX_TYPES.has(type) && isObject(value.payload)) return "codex";
	if (typeof value.sessionId === "string" && (typeof value.uuid === "string" || CLAUDE_OFF_CHAIN.has(String(type)))) {
		return "claude";
	}
	if (type === "summary" && typeof value.leafUuid === "string") return "claude";
	if (typeof type === "string" && FERN_TYPES.has(type) && value.id === undefined && value.uuid === undefined) {
		if (type === "message" && typeof value.content === "string") return "fern";
		if (type === "tool_call" && typeof value.toolCallId === "string") return "fern";
		if (type === "compaction" && typeof value.archivedCount === "number") return "fern";
	}
	if (
		(value.role === "user" || value.role === "assistant") &&
		typeof value.content === "string" &&
		type === undefined
	) {
		return "rfc0064";
	}
	if (typeof value.compact === "string" && Object.keys(value).length === 1) return "rfc0064";
	return undefined;
}

/** Whether the file is one JSON document rather than JSON lines: pretty-printed (a lone "{" first), or a single line. */
function isOneDocument(lines: readonly string[]): boolean {
	const filled = lines.filter((line) => line.trim() !== "");
	return filled[0]?.trim() === "{" || filled.length === 1;
}
