import { API, type Entry, MODEL, PROVIDER } from "./conversation.js";

/** pi's entry id for entry i of a session: 8 hex digits, as pi's own ids look. */
export function piId(index: number): string {
	return (index + 1).toString(16).padStart(8, "0");
}

const iso = (time: number) => new Date(time).toISOString();

/** The header line of a pi v3 session file. */
export function piHeader(sessionId: string, time: number, cwd: string): Record<string, unknown> {
	return { type: "session", version: 3, id: sessionId, timestamp: iso(time), cwd };
}

/** An entry as pi's SessionManager writes it (v3: id/parentId tree); entry i's parent is entry i - 1. */
export function toPiEntry(entry: Entry, index: number): Record<string, unknown> {
	const base = { id: piId(index), parentId: index === 0 ? null : piId(index - 1) };
	switch (entry.kind) {
		case "model_change":
			return {
				type: "model_change",
				...base,
				timestamp: iso(entry.time),
				provider: entry.provider,
				modelId: entry.modelId,
			};
		case "thinking_level_change":
			return { type: "thinking_level_change", ...base, timestamp: iso(entry.time), thinkingLevel: entry.thinkingLevel };
		case "session_info":
			return { type: "session_info", ...base, timestamp: iso(entry.time), name: entry.name };
		case "compaction":
			return {
				type: "compaction",
				...base,
				timestamp: iso(entry.time),
				summary: entry.summary,
				firstKeptEntryId: piId(entry.firstKeptIndex),
				tokensBefore: entry.tokensBefore,
				details: { readFiles: entry.readFiles, modifiedFiles: entry.modifiedFiles },
			};
		case "message": {
			const m = entry.message;
			const timestamp = iso(m.time);
			if (m.role === "user") {
				return {
					type: "message",
					...base,
					timestamp,
					message: { role: "user", content: m.content, timestamp: m.time },
				};
			}
			if (m.role === "assistant") {
				const message = {
					role: "assistant",
					content: m.content,
					api: API,
					provider: PROVIDER,
					model: MODEL,
					usage: m.usage,
					stopReason: m.stopReason,
					timestamp: m.time,
				};
				return { type: "message", ...base, timestamp, message };
			}
			const message = {
				role: "toolResult",
				toolCallId: m.toolCallId,
				toolName: m.toolName,
				content: m.content,
				isError: m.isError,
				timestamp: m.time,
			};
			return { type: "message", ...base, timestamp, message };
		}
	}
}
