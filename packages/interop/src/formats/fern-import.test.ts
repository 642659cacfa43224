import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { firstTexts, normaliseOurs, ourContext } from "../testing/test-context.js";
import { convertFern } from "./fern-import.js";

const DIR = fileURLToPath(new URL("../../test/fixtures/fern/sessions/telegram_12345_user_67890/", import.meta.url));
const lines = readFileSync(`${DIR}session.jsonl`, "utf8").split("\n");
const metadata = JSON.parse(readFileSync(`${DIR}metadata.json`, "utf8"));

describe("convertFern", () => {
	const converted = convertFern(lines, { sourcePath: `${DIR}session.jsonl`, metadata });
	const context = ourContext(converted.records);

	it("keys the session by metadata.json's id; the session key is the identity", () => {
		expect(converted).toMatchObject({
			format: "fern",
			sourceId: "fern-session-0001",
			identityKey: "telegram_12345_user_67890",
			createdAt: "2024-01-01T10:00:00Z",
		});
	});

	it("without metadata.json, the session directory's name keys it", () => {
		expect(convertFern(lines, { sourcePath: `${DIR}session.jsonl` }).sourceId).toBe("telegram_12345_user_67890");
	});

	it("a compaction event keeps what archivedCount did not archive", () => {
		expect(firstTexts(normaliseOurs(context))).toEqual([
			"The user listed src/.",
			"Open index.ts",
			"Reading it.",
			"export {}",
			"Thanks",
		]);
		expect(context.compaction?.tokensBefore).toBeGreaterThan(0);
	});

	it("tool calls join the assistant message before them, or start one; results carry the tool name", () => {
		const assistants = converted.records.filter((r) => r.recordType === "message" && r.role === "assistant");
		expect(assistants.map((r) => (r.recordType === "message" ? r.content.map((b) => b.type) : []))).toEqual([
			["toolCall"],
			["text"],
			["text", "toolCall"],
		]);
		const result = converted.records.find((r) => r.recordType === "message" && r.toolCallId === "tc_2");
		expect(result).toMatchObject({ toolName: "read", content: [{ text: "export {}" }] });
	});

	it("system and unknown events are custom records, reported", () => {
		const customTypes = converted.records.flatMap((r) => (r.recordType === "custom" ? [r.customType] : []));
		expect(customTypes).toEqual(["fern:session", "fern:system", "fern:reaction"]);
		expect(converted.warnings.join("\n")).toMatch(/line 12: a "reaction" event has no equivalent/);
	});
});
