import type { RecordInput } from "@agent/session-format";
import { ConversationGenerator, type Entry } from "./conversation.js";
import { toRecordInput } from "./ours-records.js";

/** The first `count` messages (user, assistant, tool results) of a realistic conversation. */
export function messageWorkload(count: number, seed = 7): Extract<Entry, { kind: "message" }>[] {
	const generator = new ConversationGenerator(seed);
	const out: Extract<Entry, { kind: "message" }>[] = [];
	while (out.length < count) {
		for (const entry of generator.turn()) {
			if (entry.kind === "message" && out.length < count) out.push(entry);
		}
	}
	return out;
}

/** The same messages as an agent appends new ones: no timestamp (the store stamps the time, as pi's SessionManager does). */
export function appendWorkload(count: number): RecordInput[] {
	return messageWorkload(count).map((entry) => {
		const { timestamp: _, ...record } = toRecordInput(entry);
		return record as RecordInput;
	});
}
