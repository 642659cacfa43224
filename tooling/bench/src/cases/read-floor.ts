import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { type Measurement, measureRuns } from "../measure.js";

export interface ReadFloorParams {
	path: string;
	/** Keep every parsed line (as any resume that builds a context from them must), instead of dropping it. */
	keep: boolean;
	runs: number;
}

const CHUNK = 1 << 20;

/**
 * The floor of any resume that reads a whole log: every byte read (1 MiB chunks), every line
 * decoded and JSON.parse'd, nothing else (no validation, no tree, no context). With `keep`, the
 * parsed lines are kept in an array until the end, as a resume keeps what its context holds.
 */
export function readAndParseEveryLine(path: string, keep = false): { lines: number; bytes: number; kept: unknown[] } {
	const fd = openSync(path, "r");
	try {
		const size = fstatSync(fd).size;
		const buffer = Buffer.allocUnsafe(CHUNK);
		let carry: Buffer | undefined;
		let lines = 0;
		let position = 0;
		const kept: unknown[] = [];
		while (position < size) {
			const read = readSync(fd, buffer, 0, CHUNK, position);
			position += read;
			let start = 0;
			for (let lf = buffer.indexOf(10, 0); lf !== -1 && lf < read; lf = buffer.indexOf(10, start)) {
				const text = carry
					? Buffer.concat([carry, buffer.subarray(start, lf)]).toString("utf8")
					: buffer.toString("utf8", start, lf);
				carry = undefined;
				const value = JSON.parse(text);
				if (keep) kept.push(value);
				lines++;
				start = lf + 1;
			}
			if (start < read) {
				const rest = Buffer.from(buffer.subarray(start, read));
				carry = carry ? Buffer.concat([carry, rest]) : rest;
			}
		}
		if (carry && carry.length > 0) {
			const value = JSON.parse(carry.toString("utf8"));
			if (keep) kept.push(value);
			lines++;
		}
		return { lines, bytes: size, kept };
	} finally {
		closeSync(fd);
	}
}

export async function readFloor(params: ReadFloorParams): Promise<Measurement> {
	return measureRuns(
		params.runs,
		() => readAndParseEveryLine(params.path, params.keep),
		(result) => ({ lines: result.lines, bytes: result.bytes, kept: result.kept.length }),
	);
}
