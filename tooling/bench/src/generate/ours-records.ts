import type { RecordInput } from "@agent/session-format";
import { API, type Entry, MODEL, PROVIDER } from "./conversation.js";

const iso = (time: number) => new Date(time).toISOString();

/** An entry as a record of our format (docs/session-format.md); entry i of a session becomes seq i + 1. */
export function toRecordInput(entry: Entry): RecordInput {
	switch (entry.kind) {
		case "model_change":
			return {
				recordType: "model_change",
				provider: entry.provider,
				modelId: entry.modelId,
				timestamp: iso(entry.time),
			};
		case "thinking_level_change":
			return { recordType: "thinking_level_change", thinkingLevel: entry.thinkingLevel, timestamp: iso(entry.time) };
		case "session_info":
			return { recordType: "session_info", name: entry.name, timestamp: iso(entry.time) };
		case "compaction":
			return {
				recordType: "compaction",
				firstKeptSeq: entry.firstKeptIndex + 1,
				summary: entry.summary,
				tokensBefore: entry.tokensBefore,
				readFiles: entry.readFiles,
				modifiedFiles: entry.modifiedFiles,
				trigger: "threshold",
				timestamp: iso(entry.time),
			};
		case "message": {
			const message = entry.message;
			const timestamp = iso(message.time);
			if (message.role === "user") return { recordType: "message", role: "user", content: message.content, timestamp };
			if (message.role === "assistant") {
				return {
					recordType: "message",
					role: "assistant",
					content: message.content,
					api: API,
					provider: PROVIDER,
					model: MODEL,
					usage: message.usage,
					stopReason: message.stopReason,
					timestamp,
				};
			}
			return {
				recordType: "message",
				role: "toolResult",
				toolCallId: message.toolCallId,
				toolName: message.toolName,
				content: message.content,
				isError: message.isError,
				timestamp,
			};
		}
	}
}
