import { beforeAll, describe, expect, it } from "vitest";
import { cliAt, tempHome } from "./cli-harness.js";

interface RecordJson {
	seq: number;
	recordType: string;
	role?: string;
	content?: Array<{ type: string; text?: string }>;
}

let cli: ReturnType<typeof cliAt>;

beforeAll(async () => {
	cli = cliAt(await tempHome());
});

/** 3.5 MB of text with a recognizable start and end (the demo model's window is 32k tokens). */
function huge(tag: string): string {
	return `${tag}-START ${"lorem ipsum dolor sit amet ".repeat(130_000)}${tag}-END`;
}

describe("content bigger than the model's window", () => {
	it("two 3.5 MB messages: every turn still answers, nothing is compacted, and the log keeps the whole text", async () => {
		const id = await cli.create("--model", "demo");
		const first = huge("one");
		const second = huge("two");
		expect(first.length).toBeGreaterThan(3_500_000);
		await cli.ok(["send", id, "-"], { input: first });
		await cli.ok(["send", id, "-"], { input: second });
		const reply = await cli.ok(["send", id, "and now a short question"]);
		expect(reply).toContain("and now a short question");
		expect(reply).toContain("turn 3");

		const records = await cli.json<RecordJson[]>(["show", id]);
		expect(records.filter((record) => record.recordType === "compaction")).toEqual([]);
		const users = records.filter((record) => record.recordType === "message" && record.role === "user");
		expect(users.map((record) => record.content?.[0]?.text)).toEqual([first, second, "and now a short question"]);
		expect(records.filter((record) => record.role === "assistant")).toHaveLength(3);
	});

	it("the model gets the head and tail of an oversized message with a marker naming its seq", async () => {
		const id = await cli.create("--model", "demo");
		await cli.ok(["send", id, "-"], { input: huge("solo") });
		const reply = await cli.ok(["send", id, "what did I send?"]);
		expect(reply).toContain("turn 2");
		const context = await cli.json<{
			messages: Array<{ content: Array<{ text?: string }> }>;
			truncated?: { seqs: number[] };
		}>(["context", id]);
		const text = context.messages[0]?.content[0]?.text ?? "";
		expect(text.startsWith("solo-START")).toBe(true);
		expect(text.endsWith("solo-END")).toBe(true);
		expect(text).toMatch(/\[… [\d,]+ characters omitted; the full text is in the session log at seq \d+ …\]/);
		expect(text.length).toBeLessThan(100_000);
		expect(context.truncated?.seqs).toHaveLength(1);
	});
});
