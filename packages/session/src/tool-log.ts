import { type ContentBlock, type StoredRecord, toolCallsOf } from "@agent/session-format/reading";

/** One tool execution, as the log tells it. */
export interface ToolExecution {
	toolCallId: string;
	toolName: string;
	/** The assistant message that asked for the call. */
	callSeq: number;
	/** When the call was asked for (the assistant message's timestamp): the execution starts then. */
	startedAt: string;
	/** The toolResult record, when there is one. */
	resultSeq?: number;
	endedAt?: string;
	/** From the call's assistant message to its result (the time the tool ran, plus a few writes). */
	durationMs?: number;
	/** "ok", "error" (the result says isError), or "no result" (the turn ended before the tool answered). */
	outcome: "ok" | "error" | "no result";
}

/**
 * The tool log (fern's tools.jsonl), derived from the session log rather than written beside it:
 * a runtime appends the assistant message with the tool call before running the tool and the
 * toolResult record right after, so the two timestamps already hold the start, the end and the
 * outcome. A second file would be a second source of truth that a crash could leave disagreeing.
 */
export async function toolExecutions(
	records: AsyncIterable<StoredRecord> | Iterable<StoredRecord>,
): Promise<ToolExecution[]> {
	const executions: ToolExecution[] = [];
	// Calls not answered yet, by id; ids repeat across sessions' imports, so a later call wins.
	const open = new Map<string, ToolExecution>();
	for await (const record of records) {
		if (record.recordType !== "message") continue;
		if (record.role === "assistant") {
			for (const call of toolCallsOf(record.content as ContentBlock[])) {
				const execution: ToolExecution = {
					toolCallId: call.id,
					toolName: call.name,
					callSeq: record.seq,
					startedAt: record.timestamp,
					outcome: "no result",
				};
				executions.push(execution);
				open.set(call.id, execution);
			}
		} else if (record.role === "toolResult" && record.toolCallId !== undefined) {
			const execution = open.get(record.toolCallId);
			if (!execution) continue;
			open.delete(record.toolCallId);
			execution.resultSeq = record.seq;
			execution.endedAt = record.timestamp;
			execution.durationMs = Math.max(0, Date.parse(record.timestamp) - Date.parse(execution.startedAt));
			execution.outcome = record.isError ? "error" : "ok";
		}
	}
	return executions;
}
