import { InvalidRecordError, type RecordInput, validateRecordInput } from "@agent/session-format";
import type { ConvertedSession } from "../types.js";

/** Caps on identifier-like fields, as the store enforces them. */
const MAX_ID = 1024;
const MAX_NAME = 256;

/**
 * Checks every converted record as the store will before anything is created, so an import is
 * all or nothing: a file that converts to a record the store refuses fails before its session
 * exists. Beyond the record schema, a tool result must name its call, its tool and whether it failed.
 */
export function checkConverted(converted: ConvertedSession): void {
	const at = converted.records[0]?.timestamp ?? converted.createdAt ?? "1970-01-01T00:00:00.000Z";
	converted.records.forEach((input, index) => {
		const seq = index + 1;
		const copy = { ...input } as RecordInput;
		delete copy.parentSeq;
		validateRecordInput(copy, { seq, timestamp: input.timestamp ?? at });
		if (input.recordType !== "message") return;
		const refuse = (path: string, problem: string): never => {
			throw new InvalidRecordError(`record ${seq}: ${problem}`, { path, index });
		};
		if (input.role === "toolResult") {
			if (!input.toolCallId) refuse("toolCallId", "a tool result without the id of its tool call");
			if (!input.toolName) refuse("toolName", "a tool result without the name of its tool");
			if (typeof input.isError !== "boolean") refuse("isError", "a tool result that does not say whether it failed");
		}
		if ((input.toolCallId?.length ?? 0) > MAX_ID)
			refuse("toolCallId", `a tool call id longer than ${MAX_ID} characters`);
		if ((input.toolName?.length ?? 0) > MAX_NAME) refuse("toolName", `a tool name longer than ${MAX_NAME} characters`);
		for (const block of input.content) {
			if (block.type === "toolCall" && (block.id.length > MAX_ID || block.name.length > MAX_NAME)) {
				refuse("content", `a tool call whose id or name is longer than ${MAX_ID} / ${MAX_NAME} characters`);
			}
		}
	});
}
