import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { Output } from "./output.js";

async function printed(value: unknown, terminal: boolean): Promise<string> {
	const stdout = Object.assign(new PassThrough(), { isTTY: terminal });
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
	])("writes %s as JSON.stringify does: indented at a terminal, on one line when piped", async (_name, value) => {
		expect(await printed(value, true)).toBe(`${JSON.stringify(value, null, 2)}\n`);
		expect(await printed(value, false)).toBe(`${JSON.stringify(value)}\n`);
	});

	it.each([
		["none", []],
		["one", [{ a: 1 }]],
		["more than one piece (256 KiB)", Array.from({ length: 5000 }, (_, i) => session(i))],
	])("jsonArrayOf writes %s as JSON.stringify writes the array of their values", async (_name, values) => {
		const stdout = new PassThrough();
		const chunks: Buffer[] = [];
		stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
		const utf8 = values.map((value) => Buffer.from(JSON.stringify(value)));
		await new Output(stdout, new PassThrough(), {}).jsonArrayOf(utf8);
		expect(Buffer.concat(chunks).toString("utf8")).toBe(`${JSON.stringify(values)}\n`);
		if (values.length > 2000) expect(chunks.length).toBeGreaterThan(1);
	});

	it.each([
		["a comma (the store's snapshot: written as it lies)", ","],
		["a newline (copied, and the commas added)", "\n"],
	])("jsonArrayOf writes values one after the other in one buffer with %s between them", async (_name, between) => {
		const sessions = Array.from({ length: 5000 }, (_, i) => session(i));
		const text = Buffer.from(sessions.map((value) => JSON.stringify(value)).join(between));
		const views: Uint8Array[] = [];
		let start = 0;
		for (const value of sessions) {
			const length = Buffer.byteLength(JSON.stringify(value));
			views.push(text.subarray(start, start + length));
			start += length + 1;
		}
		// Out of the buffer's order, from another buffer, and the same view twice: runs break there.
		const values = [
			views[3],
			views[1],
			...views.slice(4, 4000),
			Buffer.from('{"other":true}'),
			views[9],
			views[9],
			...views.slice(4000),
		];
		const stdout = new PassThrough();
		const chunks: Buffer[] = [];
		stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
		await new Output(stdout, new PassThrough(), {}).jsonArrayOf(values as Uint8Array[]);
		const expected = values.map((value) => JSON.parse(Buffer.from(value as Uint8Array).toString("utf8")));
		expect(Buffer.concat(chunks).toString("utf8")).toBe(`${JSON.stringify(expected)}\n`);
		expect(text.toString("utf8")).toBe(sessions.map((value) => JSON.stringify(value)).join(between));
		expect(chunks.some((chunk) => chunk.buffer === text.buffer)).toBe(between === ",");
	});
});
