import { compactionSummaryText, type SessionStore } from "@agent/session-format/reading";
import { convertToModelMessages, type ModelMessage, type UIMessage } from "ai";
import { type ChatEntry, chatPathOf } from "./chat-log.js";
import { mapUIMessage } from "./map-message.js";

/** convertToModelMessages' options (tools, ignoreIncompleteToolCalls, convertDataPart). */
export type ModelMessagesOptions = NonNullable<Parameters<typeof convertToModelMessages>[1]>;

/**
 * The model messages of a chat as its context has them: after a compaction, its summary (as a
 * user message) and the messages it kept, then what came after; otherwise the whole active path.
 * A reply the compaction cut inside keeps only its steps from the cut on.
 */
export async function chatModelMessages(
	store: SessionStore,
	chatId: string,
	options?: ModelMessagesOptions,
): Promise<ModelMessage[]> {
	const { path, context } = await store.open(chatId);
	const messages: UIMessage[] = [];
	if (context.compaction) {
		messages.push({
			id: `compaction-${context.compaction.seq}`,
			role: "user",
			parts: [{ type: "text", text: compactionSummaryText(context.compaction.summary) }],
		});
	}
	for (const entry of chatPathOf(path).entries) {
		const kept = keptPart(entry);
		if (kept) messages.push(kept);
	}
	return await convertToModelMessages(messages, options);
}

/**
 * The part of a message its path holds: the path starts at the compaction's first kept record,
 * so the first message may have lost its first records (its first steps) to the summary.
 */
function keptPart(entry: ChatEntry): UIMessage | undefined {
	const { message } = entry.data;
	const stop = entry.data.aborted ? "aborted" : entry.data.error !== undefined ? "error" : undefined;
	const mapped = mapUIMessage(message, stop ? { stop } : {});
	const total = mapped.records.length;
	const kept = entry.records.length;
	if (kept >= total) return message;
	if (kept === 0) return undefined;
	return { ...message, parts: message.parts.slice(mapped.partStarts[total - kept]) };
}
