import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { lineBatches } from "./line-batches.js";

async function collect(chunks: Array<string | Buffer>, maxBatch?: number) {
	const input = new PassThrough();
	for (const chunk of chunks) input.write(chunk);
	input.end();
	const batches = [];
	for await (const batch of lineBatches(input, maxBatch)) batches.push(batch);
	return batches;
}

describe("lineBatches", () => {
	it("numbers lines across chunks and keeps a line split between chunks whole", async () => {
		const batches = await collect(["a\nb", "c\nd\n"]);
		expect(batches.flat()).toEqual([
			{ number: 1, text: "a" },
			{ number: 2, text: "bc" },
			{ number: 3, text: "d" },
		]);
	});

	it("yields a last line that has no newline, and strips CR of CRLF input", async () => {
		const batches = await collect(["x\r\ny"]);
		expect(batches.flat().map((line) => line.text)).toEqual(["x", "y"]);
	});

	it("keeps a multi-byte character split between chunks intact", async () => {
		const bytes = Buffer.from("é\n", "utf8");
		const batches = await collect([bytes.subarray(0, 1), bytes.subarray(1)]);
		expect(batches.flat()).toEqual([{ number: 1, text: "é" }]);
	});

	it("caps the size of a batch", async () => {
		const batches = await collect(["1\n2\n3\n4\n5\n"], 2);
		expect(batches.map((batch) => batch.length)).toEqual([2, 2, 1]);
	});
});
