import type { Readable } from "node:stream";

export interface InputLine {
	/** 1-based line number in the input. */
	number: number;
	text: string;
}

/**
 * The lines of a stream, in batches: each batch holds the complete lines that arrived together
 * (at most `maxBatch`), so a caller can act on lines as soon as they arrive without a round trip
 * per line when many arrive at once. A last line without a newline is yielded at the end.
 */
export async function* lineBatches(input: Readable, maxBatch = 500): AsyncGenerator<InputLine[]> {
	input.setEncoding("utf8");
	let pending = "";
	let number = 0;
	for await (const chunk of input as AsyncIterable<string>) {
		pending += chunk;
		let batch: InputLine[] = [];
		let start = 0;
		for (let newline = pending.indexOf("\n"); newline >= 0; newline = pending.indexOf("\n", start)) {
			batch.push({ number: ++number, text: pending.slice(start, newline).replace(/\r$/, "") });
			start = newline + 1;
			if (batch.length >= maxBatch) {
				yield batch;
				batch = [];
			}
		}
		pending = pending.slice(start);
		if (batch.length > 0) yield batch;
	}
	if (pending.length > 0) yield [{ number: ++number, text: pending.replace(/\r$/, "") }];
}
