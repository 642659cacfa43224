import { messageRecordInput, toPiMessage } from "@agent/session-format/pi";
import type { CustomRecord, OpenedSession, RecordInput, StoredRecord } from "@agent/session-format/reading";
import type { AgentMessage } from "@mariozechner/pi-agent-core";
import type { Message, Model } from "@mariozechner/pi-ai";

/** The customType of the records that keep an agent's own message types (CustomAgentMessages). */
export const AGENT_MESSAGE_TYPE = "pi-agent:message";

const LLM_ROLES = new Set(["user", "assistant", "toolResult"]);

/** The record that keeps a finished message: a message record, or for a custom message type a custom record. */
export function recordOf(message: AgentMessage): RecordInput {
	if (LLM_ROLES.has((message as { role?: string }).role ?? "")) return messageRecordInput(message as Message);
	return { recordType: "custom", customType: AGENT_MESSAGE_TYPE, data: message };
}

function isAgentMessageRecord(record: StoredRecord): record is CustomRecord {
	return record.recordType === "custom" && record.customType === AGENT_MESSAGE_TYPE && record.data !== undefined;
}

/**
 * The agent's messages for a resumed session: its context as pi-ai messages (a compaction's
 * summary first, as a user message), tool results with their `details` (kept on the record,
 * never sent to the LLM), and the agent's own message types back in their places.
 */
export function agentMessagesOf(opened: OpenedSession, model: Model<string>): AgentMessage[] {
	const { context, path } = opened;
	const details = new Map<number, unknown>();
	for (const record of path) {
		if (record.recordType === "message" && record.details !== undefined) details.set(record.seq, record.details);
	}
	const firstKept = context.compaction?.firstKeptSeq ?? 0;
	const own = path
		.filter((record) => record.seq >= firstKept && isAgentMessageRecord(record))
		.map((record) => ({ seq: record.seq, message: (record as CustomRecord).data as AgentMessage }));
	const out: AgentMessage[] = [];
	let next = 0;
	for (const message of context.messages) {
		// The summary (seq of the compaction) comes first; the rest of the path rises in seq.
		if (message.origin !== "compaction_summary") {
			while (next < own.length && (own[next]?.seq ?? 0) < (message.seq ?? 0))
				out.push((own[next++] as { message: AgentMessage }).message);
		}
		const piMessage = toPiMessage(message, model);
		const kept = message.seq === undefined ? undefined : details.get(message.seq);
		if (kept !== undefined && piMessage.role === "toolResult") piMessage.details = kept;
		out.push(piMessage);
	}
	while (next < own.length) out.push((own[next++] as { message: AgentMessage }).message);
	return out;
}
