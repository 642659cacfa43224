import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { readLinesBackward } from "./backward-reader.js";
import { type RawLine, readLinesForward } from "./line-reader.js";

const dir = mkdtempSync(join(tmpdir(), "session-fs-lines-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let fileCounter = 0;

/** What splitting the bytes on LF must give: text, byte offset, byte length, terminated. */
function reference(bytes: Buffer): Array<Omit<RawLine, "line">> {
	const out: Array<Omit<RawLine, "line">> = [];
	let start = 0;
	while (start < bytes.length) {
		const lf = bytes.indexOf(10, start);
		const end = lf === -1 ? bytes.length : lf;
		out.push({
			text: bytes.toString("utf8", start, end),
			byteOffset: start,
			byteLength: end - start,
			terminated: lf !== -1,
		});
		start = end + 1;
	}
	return out;
}

async function withFile<T>(bytes: Buffer, work: (fd: number) => Promise<T>): Promise<T> {
	const path = join(dir, `f${++fileCounter}`);
	writeFileSync(path, bytes);
	const fd = openSync(path, "r");
	try {
		return await work(fd);
	} finally {
		closeSync(fd);
		rmSync(path);
	}
}

async function forward(fd: number, chunkBytes: number): Promise<RawLine[]> {
	const out: RawLine[] = [];
	for await (const batch of readLinesForward(fd, { chunkBytes })) out.push(...batch);
	return out;
}

async function backward(fd: number, chunkBytes: number): Promise<RawLine[]> {
	const out: RawLine[] = [];
	for await (const batch of readLinesBackward(fd, { chunkBytes })) out.push(...batch);
	return out.reverse();
}

// Lines of multi-byte text (so chunk edges fall inside characters), empty lines, and files with or without a final LF.
const contents = fc
	.tuple(
		fc.array(
			fc.string({ unit: "grapheme", maxLength: 40 }).map((s) => s.replaceAll("\n", " ")),
			{ maxLength: 30 },
		),
		fc.boolean(),
	)
	.map(([lines, finalNewline]) => Buffer.from(lines.join("\n") + (finalNewline && lines.length > 0 ? "\n" : "")));

describe("the line readers", () => {
	it("forwards, any chunk size: exactly the LF-split lines, with UTF-8 byte offsets and 1-based line numbers", async () => {
		await fc.assert(
			fc.asyncProperty(contents, fc.integer({ min: 1, max: 64 }), async (bytes, chunkBytes) => {
				const lines = await withFile(bytes, (fd) => forward(fd, chunkBytes));
				expect(lines.map(({ line: _line, ...rest }) => rest)).toEqual(reference(bytes));
				expect(lines.map((line) => line.line)).toEqual(lines.map((_, i) => i + 1));
			}),
			{ numRuns: 300 },
		);
	});

	it("backwards, any chunk size: the same lines and offsets as forwards, last first", async () => {
		await fc.assert(
			fc.asyncProperty(contents, fc.integer({ min: 1, max: 64 }), async (bytes, chunkBytes) => {
				const lines = await withFile(bytes, (fd) => backward(fd, chunkBytes));
				expect(lines.map(({ line: _line, ...rest }) => rest)).toEqual(reference(bytes));
				expect(lines.every((line) => line.line === 0)).toBe(true);
			}),
			{ numRuns: 300 },
		);
	});

	it("start and end bound both readers to a range of whole lines", async () => {
		const bytes = Buffer.from("alpha\nbeta\ngamma\ndelta\n");
		await withFile(bytes, async (fd) => {
			const texts = async (lines: AsyncIterable<RawLine[]>) => {
				const out: string[] = [];
				for await (const batch of lines) out.push(...batch.map((line) => line.text));
				return out;
			};
			expect(await texts(readLinesForward(fd, { start: 6, end: 17 }))).toEqual(["beta", "gamma"]);
			expect(await texts(readLinesBackward(fd, { start: 6, end: 17 }))).toEqual(["gamma", "beta"]);
			const partial: RawLine[] = [];
			for await (const batch of readLinesForward(fd, { start: 6 })) partial.push(...batch);
			expect(partial[0]).toMatchObject({ text: "beta", line: 0, byteOffset: 6 });
		});
	});

	it("a line longer than maxLineBytes is reported as oversized, not held in memory, and the next line still reads", async () => {
		const bytes = Buffer.from(`short\n${"x".repeat(5000)}\nafter\n`);
		await withFile(bytes, async (fd) => {
			for (const read of [
				() => readLinesForward(fd, { chunkBytes: 100, maxLineBytes: 1000 }),
				() => readLinesBackward(fd, { chunkBytes: 100, maxLineBytes: 1000 }),
			]) {
				const lines: RawLine[] = [];
				for await (const batch of read()) lines.push(...batch);
				lines.sort((a, b) => a.byteOffset - b.byteOffset);
				expect(lines.map((line) => [line.text, line.oversized ?? false, line.byteLength])).toEqual([
					["short", false, 5],
					["", true, 5000],
					["after", false, 5],
				]);
			}
		});
	});

	it("an empty file has no lines", async () => {
		await withFile(Buffer.alloc(0), async (fd) => {
			expect(await forward(fd, 8)).toEqual([]);
			expect(await backward(fd, 8)).toEqual([]);
		});
	});
});
