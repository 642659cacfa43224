import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { Output } from "./output.js";

async function printed(value: unknown): Promise<string> {
	const stdout = new PassThrough();
	const chunks: string[] = [];
	stdout.on("data", (chunk: Buffer) => chunks.push(chunk.toString("utf8")));
	const out = new Output(stdout, new PassThrough(), {});
	await out.json(value);
	return chunks.join("");
}

describe("Output.json", () => {
	const session = (i: number) => ({
		id: `S${i}`,
		name: i % 3 === 0 ? undefined : `name ${i} \u2026 "quoted" \\ \n`,
		metrics: { input: i, byModel: { "a/b": { input: i, cost: i / 7 } } },
		tags: i % 2 === 0 ? [] : [i, null, "x"],
		nothing: {},
	});

	it.each([
		["an empty array", []],
		["an array of one", [session(1)]],
		["scalars, nulls and holes", [1, "two", null, undefined, [], {}, [[1, [2]]]]],
		["an array longer than one piece (32 KiB)", Array.from({ length: 2000 }, (_, i) => session(i))],
		["an object", { sessions: [session(1), session(2)], total: 2 }],
		["a string", "plain"],
		["null", null],
	])("writes %s as JSON.stringify(value, null, 2) does", async (_name, value) => {
		expect(await printed(value)).toBe(`${JSON.stringify(value, null, 2)}\n`);
	});
});
