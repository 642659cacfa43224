import type { ContentBlock, ContextMessage, StopReason } from "@agent/session-format";
import { type AgentTarget, carriedContent, lineUuid, ToolIds } from "./agent-carry.js";
import { resumableContext } from "./export-context.js";
import { piSessionIdOf } from "./pi-export.js";
import type { ExportInfo, RecordSource } from "./record-source.js";

/** Options of the exports that let another agent resume a session. */
export interface AgentExportOptions {
	/** The session id to write (a UUID); default one derived from our session id, the same on every export. */
	sessionId?: string;
	/** The working directory to write (where the agent looks for the session); default the session's cwd, else the process's. */
	cwd?: string;
}

/** The Claude Code version whose file format the export follows. */
export const CLAUDE_CODE_VERSION = "2.1.39";

const TARGET: AgentTarget = "claude";

/**
 * A session as a Claude Code session file (`~/.claude/projects/<cwd with every character but
 * letters and digits as "-">/<sessionId>.jsonl`) that `claude --resume <sessionId>` opens: the
 * context of the active branch (what the model sees) as one chain of lines, each naming the one
 * before as its parent. A compaction is a `compact_boundary` line and the `isCompactSummary` user
 * line after it; custom messages and branch summaries are meta user lines (sent, not shown as
 * typed); the session's name is a `custom-title`. See docs/interop-formats.md for every field.
 */
export async function* claudeExportLines(
	source: RecordSource,
	info: ExportInfo,
	options: AgentExportOptions = {},
): AsyncGenerator<string> {
	const context = await resumableContext(source, info, "Claude Code");
	const sessionId = options.sessionId ?? piSessionIdOf(info.id);
	const cwd = options.cwd ?? info.cwd ?? process.cwd();
	const ids = new ToolIds();
	const clock = new RisingClock(info.createdAt);
	let n = 0;
	let parentUuid: string | null = null;
	const model = info.model?.includes("/") ? info.model.slice(info.model.indexOf("/") + 1) : info.model;
	const line = (fields: Record<string, unknown>, timestamp: string | undefined, parent: string | null = parentUuid) => {
		const uuid = lineUuid(sessionId, ++n);
		const out = {
			parentUuid: parent,
			isSidechain: false,
			userType: "external",
			cwd,
			sessionId,
			version: CLAUDE_CODE_VERSION,
			gitBranch: "",
			...fields,
			uuid,
			timestamp: clock.after(timestamp ?? info.createdAt),
		};
		parentUuid = uuid;
		return `${JSON.stringify(out)}\n`;
	};
	if (info.name) yield `${JSON.stringify({ type: "custom-title", customTitle: info.name, sessionId })}\n`;
	for (const message of context.messages) {
		const content = carriedContent(message, TARGET);
		if (message.origin === "compaction_summary") {
			const compaction = context.compaction;
			const metadata = {
				trigger: compaction?.trigger === "manual" ? "manual" : "auto",
				preTokens: compaction?.tokensBefore ?? 0,
			};
			const logical = parentUuid;
			yield line(
				{
					type: "system",
					subtype: "compact_boundary",
					content: "Conversation compacted",
					isMeta: false,
					level: "info",
					logicalParentUuid: logical,
					compactMetadata: metadata,
				},
				message.timestamp,
				null,
			);
			yield line(
				{
					type: "user",
					message: { role: "user", content: userBlocks(content) },
					isCompactSummary: true,
					isVisibleInTranscriptOnly: true,
				},
				message.timestamp,
			);
		} else if (message.role === "assistant") {
			// A message id of its own per line: Claude Code joins lines that share one into one response.
			const id = lineUuid(sessionId, n + 1).replace(/-/g, "");
			yield line(
				{
					type: "assistant",
					message: assistantMessage(message, content, ids, model, `msg_${id}`),
					requestId: `req_${id}`,
				},
				message.timestamp,
			);
		} else if (message.role === "toolResult") {
			const result = {
				type: "tool_result",
				tool_use_id: ids.of(message.toolCallId ?? ""),
				content: userBlocks(content),
				is_error: message.isError === true,
			};
			yield line({ type: "user", message: { role: "user", content: [result] } }, message.timestamp);
		} else {
			const meta = message.origin === "message" ? {} : { isMeta: true };
			yield line({ type: "user", message: { role: "user", content: userBlocks(content) }, ...meta }, message.timestamp);
		}
	}
}

/**
 * Timestamps that rise along the chain. `claude --resume <id>` (2.1.39, checked) resumes from the
 * line with the latest timestamp, the first of equal ones: records appended together share a
 * millisecond, and with equal times it would resume from the first line and drop the rest. A line no
 * later than the one before it is written a millisecond after it.
 */
class RisingClock {
	#last = Number.NEGATIVE_INFINITY;
	readonly #start: number;

	constructor(start: string) {
		this.#start = Date.parse(start) || 0;
	}

	after(timestamp: string): string {
		const at = Date.parse(timestamp);
		const base = Number.isNaN(at) ? this.#start : at;
		this.#last = base > this.#last ? base : this.#last + 1;
		return new Date(this.#last).toISOString();
	}
}

function assistantMessage(
	message: ContextMessage,
	content: ContentBlock[],
	ids: ToolIds,
	model: string | undefined,
	id: string,
): Record<string, unknown> {
	const blocks = content.map((block) => {
		if (block.type === "toolCall")
			return { type: "tool_use", id: ids.of(block.id), name: block.name, input: block.arguments };
		if (block.type === "thinking") {
			return block.redacted
				? { type: "redacted_thinking", data: block.thinkingSignature }
				: { type: "thinking", thinking: block.thinking, signature: block.thinkingSignature };
		}
		return block;
	});
	const usage = message.usage;
	return {
		model: message.model || model || "<synthetic>",
		id,
		type: "message",
		role: "assistant",
		content: blocks,
		stop_reason: stopReason(message.stopReason, content),
		stop_sequence: null,
		usage: {
			input_tokens: usage?.input ?? 0,
			cache_creation_input_tokens: usage?.cacheWrite ?? 0,
			cache_read_input_tokens: usage?.cacheRead ?? 0,
			output_tokens: usage?.output ?? 0,
		},
	};
}

/** Text and images as Anthropic's user-side blocks. */
function userBlocks(content: ContentBlock[]): Record<string, unknown>[] {
	return content.flatMap<Record<string, unknown>>((block) => {
		if (block.type === "text") return [{ type: "text", text: block.text }];
		if (block.type === "image")
			return [{ type: "image", source: { type: "base64", media_type: block.mimeType, data: block.data } }];
		return [];
	});
}

function stopReason(reason: StopReason | undefined, content: ContentBlock[]): string {
	if (reason === "length") return "max_tokens";
	if (reason === "toolUse" || content.some((block) => block.type === "toolCall")) return "tool_use";
	return "end_turn";
}
