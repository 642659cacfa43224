import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { type Measurement, measureRuns } from "../measure.js";

export interface ReadFloorParams {
	path: string;
	runs: number;
}

const CHUNK = 1 << 20;

/**
 * The floor of any resume that reads a whole log: every byte read (1 MiB chunks), every line
 * decoded and JSON.parse'd, nothing else (no validation, no tree, no context).
 */
export function readAndParseEveryLine(path: string): { lines: number; bytes: number } {
	const fd = openSync(path, "r");
	try {
		const size = fstatSync(fd).size;
		const buffer = Buffer.allocUnsafe(CHUNK);
		let carry: Buffer | undefined;
		let lines = 0;
		let position = 0;
		while (position < size) {
			const read = readSync(fd, buffer, 0, CHUNK, position);
			position += read;
			let start = 0;
			for (let lf = buffer.indexOf(10, 0); lf !== -1 && lf < read; lf = buffer.indexOf(10, start)) {
				const text = carry
					? Buffer.concat([carry, buffer.subarray(start, lf)]).toString("utf8")
					: buffer.toString("utf8", start, lf);
				carry = undefined;
				JSON.parse(text);
				lines++;
				start = lf + 1;
			}
			if (start < read) {
				const rest = Buffer.from(buffer.subarray(start, read));
				carry = carry ? Buffer.concat([carry, rest]) : rest;
			}
		}
		if (carry && carry.length > 0) {
			JSON.parse(carry.toString("utf8"));
			lines++;
		}
		return { lines, bytes: size };
	} finally {
		closeSync(fd);
	}
}

export async function readFloor(params: ReadFloorParams): Promise<Measurement> {
	return measureRuns(
		params.runs,
		() => readAndParseEveryLine(params.path),
		(result) => ({ ...result }),
	);
}
