import type { RecordInput } from "@agent/session-format";
import type { TestServer } from "./test-server.js";
import { createSession } from "./test-server.js";

/** A session holding `count` alternating user and assistant messages ("message 1", ...), written through the store. */
export async function sessionWithMessages(server: TestServer, count: number, name = `${count} messages`) {
	const session = await createSession(server, { name });
	const records: RecordInput[] = Array.from({ length: count }, (_, index) => ({
		recordType: "message",
		role: index % 2 === 0 ? "user" : "assistant",
		content: [{ type: "text", text: `message ${index + 1}` }],
	}));
	for (let start = 0; start < records.length; start += 500) {
		await server.runtime.store.append(session.id, records.slice(start, start + 500));
	}
	return server.runtime.metadata(session.id);
}
