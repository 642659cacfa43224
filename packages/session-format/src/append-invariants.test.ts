import { describe, expect, it } from "vitest";
import { parseRecordLine } from "./parse.js";
import { validateRecordInput } from "./validate.js";

const fill = { seq: 5, timestamp: "2025-02-11T10:00:00Z" };

function rejection(input: unknown): { path: string; message: string } | undefined {
	try {
		validateRecordInput(input, fill, 0);
		return undefined;
	} catch (error) {
		const { path, message } = error as { path: string; message: string };
		return { path, message };
	}
}

const result = { recordType: "message", role: "toolResult", content: [{ type: "text", text: "ok" }] };

describe("invariants enforced when a record is appended (readers keep reading old logs as they are)", () => {
	it("a toolResult must give toolCallId, toolName and isError (spec §7.2): each refusal names the field", () => {
		expect(rejection({ ...result, toolName: "bash", isError: false })?.path).toBe("toolCallId");
		expect(rejection({ ...result, toolCallId: "c1", isError: false })?.path).toBe("toolName");
		expect(rejection({ ...result, toolCallId: "c1", toolName: "", isError: false })?.path).toBe("toolName");
		expect(rejection({ ...result, toolCallId: "c1", toolName: "bash" })).toMatchObject({
			path: "isError",
			message: expect.stringMatching(
				/must give isError: true when the tool failed, else false \(record 1 of the batch\)/,
			),
		});
		expect(rejection({ ...result, toolCallId: "c1", toolName: "bash", isError: false })).toBeUndefined();
		// A log written before this rule still reads.
		const old = parseRecordLine(
			'{"recordType":"message","schemaVersion":1,"seq":3,"timestamp":"t","role":"toolResult","content":[],"toolCallId":"c"}',
		);
		expect(old.ok && old.record.recordType).toBe("message");
	});

	it("identifier-like strings are capped: an image mimeType of 100 KB is refused, a normal one is not", () => {
		const image = (mimeType: string) => ({
			recordType: "message",
			role: "user",
			content: [
				{ type: "text", text: "see" },
				{ type: "image", data: "AAAA", mimeType },
			],
		});
		expect(rejection(image("x".repeat(100_000)))).toMatchObject({
			path: "content.1.mimeType",
			message: expect.stringMatching(/content\.1\.mimeType is 100000 characters long .*at most 255 are allowed/),
		});
		expect(rejection(image("image/png"))).toBeUndefined();
		const call = (id: string, name: string) => ({
			recordType: "message",
			role: "assistant",
			content: [{ type: "toolCall", id, name, arguments: {} }],
		});
		expect(rejection(call("c".repeat(1025), "bash"))?.path).toBe("content.0.id");
		expect(rejection(call("c1", "n".repeat(257)))?.path).toBe("content.0.name");
		expect(rejection({ ...result, toolCallId: "c1", toolName: "t".repeat(257), isError: true })?.path).toBe("toolName");
		expect(rejection({ recordType: "model_change", provider: "p".repeat(300), modelId: "m" })?.path).toBe("provider");
		expect(rejection({ recordType: "session_info", name: "n".repeat(1025) })?.path).toBe("name");
		expect(rejection({ recordType: "label", targetSeq: 1, label: "l".repeat(1025) })?.path).toBe("label");
		expect(rejection({ recordType: "custom", customType: "c".repeat(257) })?.path).toBe("customType");
	});

	it("a compaction keeps from a record at or before itself", () => {
		const compaction = (firstKeptSeq: number) => ({
			recordType: "compaction",
			firstKeptSeq,
			summary: "s",
			tokensBefore: 1,
			readFiles: [],
			modifiedFiles: [],
		});
		expect(rejection(compaction(6))).toMatchObject({
			path: "firstKeptSeq",
			message: expect.stringMatching(/after the compaction itself/),
		});
		expect(rejection(compaction(5))).toBeUndefined();
		expect(rejection(compaction(2))).toBeUndefined();
	});

	it("a leaf_change names its leaf; the session header is the store's to write", () => {
		expect(rejection({ recordType: "leaf_change" })?.path).toBe("parentSeq");
		expect(rejection({ recordType: "leaf_change", parentSeq: 2 })).toBeUndefined();
		expect(rejection({ recordType: "leaf_change", parentSeq: null })).toBeUndefined();
		expect(rejection({ ...result, session: { createdAt: "t" } })?.path).toBe("session");
		const withHeader = validateRecordInput(
			{ recordType: "message", role: "user", content: [] },
			{ seq: 1, timestamp: "2025-02-11T10:00:00Z", session: { createdAt: "2025-02-11T09:00:00Z", name: "n" } },
		);
		expect(Object.keys(withHeader).slice(0, 5)).toEqual(["recordType", "schemaVersion", "seq", "timestamp", "session"]);
		expect(withHeader).toMatchObject({ session: { createdAt: "2025-02-11T09:00:00Z", name: "n" } });
	});
});
