import { parseRecordLine } from "@agent/session-format";
import type { FuzzLog } from "./line-arbitraries.js";

/** What a reader must make of one line: nothing (blank), a record, or a reported problem. */
export interface ExpectedLine {
	line: number;
	byteOffset: number;
	outcome: "blank" | "record" | "problem";
	/** The record's seq, or the problem's code. */
	seq?: number;
	code?: string;
	mustFail: boolean;
	kind: string;
}

/** The outcome of every line by the reader rules (docs/session-format.md), worked out line by line. */
export function expectedOutcomes(log: FuzzLog): ExpectedLine[] {
	const expected: ExpectedLine[] = [];
	let byteOffset = 0;
	for (const [index, entry] of log.lines.entries()) {
		const text = entry.bytes.toString("utf8");
		const last = index === log.lines.length - 1;
		const base = { line: index + 1, byteOffset, mustFail: entry.mustFail, kind: entry.kind };
		byteOffset += entry.bytes.length + 1;
		if (/^[ \t\r]*$/.test(text)) {
			expected.push({ ...base, outcome: "blank" });
			continue;
		}
		const parsed = parseRecordLine(text);
		if (parsed.ok) {
			expected.push({ ...base, outcome: "record", seq: parsed.record.seq });
			continue;
		}
		const code = last && log.torn ? "TORN_TAIL" : parsed.problem.code;
		expected.push({ ...base, outcome: "problem", code });
	}
	return expected;
}
