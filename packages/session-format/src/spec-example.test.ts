import { describe, expect, it } from "vitest";
import { buildContext } from "./context.js";
import { parseRecordLine } from "./parse.js";
import type { StoredRecord } from "./records.js";

// The JSONL example of spec §7.2, verbatim.
const SPEC_EXAMPLE = `{"recordType":"message","schemaVersion":1,"seq":1,"role":"user","content":[{"type":"text","text":"What pods are running?"}],"timestamp":"2025-02-11T10:00:00Z"}
{"recordType":"message","schemaVersion":1,"seq":2,"role":"assistant","content":[{"type":"text","text":"Let me check."},{"type":"toolCall","id":"tc_1","name":"bash","arguments":{"command":"kubectl get pods"}}],"timestamp":"2025-02-11T10:00:01Z"}
{"recordType":"message","schemaVersion":1,"seq":3,"role":"toolResult","content":[{"type":"text","text":"NAME   READY   STATUS\\nnginx  1/1     Running"}],"toolCallId":"tc_1","isError":false,"timestamp":"2025-02-11T10:00:02Z"}
{"recordType":"message","schemaVersion":1,"seq":4,"role":"assistant","content":[{"type":"text","text":"There is one pod running: nginx, with status Running."}],"timestamp":"2025-02-11T10:00:03Z"}`;

describe("the spec §7.2 JSONL example", () => {
	it("parses every line and builds the four-message context in order", () => {
		const records = SPEC_EXAMPLE.split("\n").map((line) => {
			const parsed = parseRecordLine(line);
			if (!parsed.ok) throw new Error(parsed.problem.message);
			return parsed.record;
		}) as StoredRecord[];
		const context = buildContext(records);
		expect(context.messages.map((m) => [m.role, m.seq])).toEqual([
			["user", 1],
			["assistant", 2],
			["toolResult", 3],
			["assistant", 4],
		]);
		expect(context.messages[2]?.toolCallId).toBe("tc_1");
		expect(context.compaction).toBeUndefined();
		expect(context.estimatedTokens).toBeGreaterThan(0);
	});
});
