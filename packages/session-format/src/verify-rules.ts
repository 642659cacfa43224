import type { DamageAckRecord, StoredRecord } from "./records.js";
import type { VerifyProblem } from "./store-contract.js";
import { unportableText } from "./text-rules.js";

/**
 * What every store's `verify` decides alike: which problems fail the check, which seq gaps a
 * `damage_ack` record explains, and which records hold text another store cannot keep as is.
 */

/** Problems that are reported but do not fail the check. */
const NOT_FAILING: ReadonlySet<string> = new Set(["opaque_record", "unportable_text"]);

/** True when no problem fails the check: each is a kind that never does, or acknowledged by repair. */
export function verifyPasses(problems: readonly VerifyProblem[]): boolean {
	return problems.every((problem) => NOT_FAILING.has(problem.kind) || problem.acknowledged === true);
}

/**
 * True when a damage_ack record explains the seqs from..to missing from a log: it names them
 * (`seqs`, written by repair since the seqs were recorded), or, written before that, it names the
 * damaged line at a line number in the range (a log's line n holds seq n unless something before
 * it is out of order). This is how a copy of a repaired log (migrate) keeps its gap acknowledged:
 * the damaged line itself stays behind in the source.
 */
export function gapAcknowledged(gap: { from: number; to: number }, acks: readonly DamageAckRecord[]): boolean {
	return acks.some((ack) =>
		ack.seqs !== undefined
			? ack.seqs.from <= gap.from && gap.to <= ack.seqs.to
			: ack.line >= gap.from && ack.line <= gap.to,
	);
}

/** A verify problem for a record holding text another store cannot keep as is, or undefined. */
export function unportableTextProblem(
	record: StoredRecord,
	where: { line: number; byteOffset: number },
): VerifyProblem | undefined {
	const found = unportableText(record);
	if (!found) return undefined;
	return {
		kind: "unportable_text",
		...where,
		seq: record.seq,
		message: `seq ${record.seq}: ${found.path} ${found.problem} (written before stores refused it); it reads back as it is here, and a copy into PostgreSQL (migrate) stores U+FFFD in its place`,
	};
}
