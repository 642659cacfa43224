import { ConversationGenerator, type Entry } from "./conversation.js";

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
