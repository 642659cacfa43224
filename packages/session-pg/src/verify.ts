import {
	type DamageAckRecord,
	gapAcknowledged,
	parentSeqOf,
	parseRecordLine,
	type SessionMetadata,
	unportableTextProblem,
	type VerifyProblem,
	type VerifyReport,
	verifyPasses,
} from "@agent/session-format";
import { notFound } from "./errors.js";
import { type Db, rowsForward } from "./rows.js";
import { rebuildMetadata } from "./session-rows.js";

export interface PgVerifyOutcome {
	report: VerifyReport;
	rebuilt: SessionMetadata;
}

/** JSON with sorted keys: two equal values compare equal whatever order their keys came in (jsonb keeps none). */
function stableJson(value: unknown): string | undefined {
	return JSON.stringify(value, (_key, inner: unknown) =>
		inner && typeof inner === "object" && !Array.isArray(inner)
			? Object.fromEntries(Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
			: inner,
	);
}

/**
 * Reads every record of the session once, in seq order, and reports what is wrong: rows that do
 * not parse, opaque records, seq gaps, dangling parents, a compaction whose firstKeptSeq is not on
 * its path, and a metadata cache that drifted from the records; and, without failing, text
 * another store cannot keep as is. A seq gap a damage_ack record explains (a copy of a repaired
 * log: gapAcknowledged) is marked acknowledged, and so are parents missing in it. Memory: one
 * parent link per record.
 */
export async function verifySession(db: Db, id: string): Promise<PgVerifyOutcome> {
	const { rows } = await db.query<{ created: SessionMetadata; metadata: SessionMetadata | null }>(
		"SELECT created, metadata FROM agent_sessions WHERE id = $1",
		[id],
	);
	const row = rows[0];
	if (!row) throw notFound(id);
	const problems: VerifyProblem[] = [];
	const parents = new Map<number, number | null>();
	const gaps: Array<{ from: number; to: number; problem: VerifyProblem }> = [];
	const dangling: Array<{ parent: number; problem: VerifyProblem }> = [];
	const acks: DamageAckRecord[] = [];
	let previous = 0;
	let records = 0;
	let bytes = 0;
	for await (const page of rowsForward(db, id, 1)) {
		for (const { seq, line } of page) {
			bytes += Buffer.byteLength(line) + 1;
			const at = { line: seq, byteOffset: 0, seq };
			if (seq !== previous + 1) {
				const problem: VerifyProblem = { kind: "seq_gap", ...at, message: `seq ${seq} follows seq ${previous}` };
				problems.push(problem);
				gaps.push({ from: previous + 1, to: seq - 1, problem });
			}
			previous = seq;
			const parsed = parseRecordLine(line);
			if (!parsed.ok) {
				problems.push({ kind: "corrupt_line", ...at, message: parsed.problem.message });
				continue;
			}
			records++;
			const record = parsed.record;
			if (record.recordType === "opaque") problems.push({ kind: "opaque_record", ...at, message: record.reason });
			const unportable = unportableTextProblem(record, at);
			if (unportable) problems.push(unportable);
			if (record.recordType === "damage_ack") acks.push(record);
			const parent = parentSeqOf(record);
			if (parent !== null && !parents.has(parent)) {
				const problem: VerifyProblem = {
					kind: "dangling_parent",
					...at,
					message: `seq ${seq} names parent ${parent}, which is not a record before it`,
				};
				problems.push(problem);
				dangling.push({ parent, problem });
			}
			parents.set(seq, parent);
			if (record.recordType === "compaction" && record.firstKeptSeq !== seq) {
				let walk: number | null | undefined = parent;
				while (walk !== null && walk !== undefined && walk !== record.firstKeptSeq) walk = parents.get(walk);
				if (walk !== record.firstKeptSeq) {
					problems.push({
						kind: "compaction_off_path",
						...at,
						message: `the compaction at seq ${seq} keeps from seq ${record.firstKeptSeq}, which is not on its path`,
					});
				}
			}
		}
	}
	for (const gap of gaps) {
		if (!gapAcknowledged(gap, acks)) continue;
		gap.problem.acknowledged = true;
		for (const missing of dangling) {
			if (missing.parent >= gap.from && missing.parent <= gap.to) missing.problem.acknowledged = true;
		}
	}
	const rebuilt = await rebuildMetadata(db, id, row.created);
	if (row.metadata === null) {
		problems.push({
			kind: "metadata_missing",
			message: "the metadata cache is empty; repair rebuilds it from the records",
		});
	} else if (stableJson({ ...row.metadata, logBytes: 0 }) !== stableJson({ ...rebuilt, logBytes: 0 })) {
		problems.push({
			kind: "metadata_drift",
			message: "the metadata cache differs from the records; repair rewrites it",
		});
	}
	const ok = verifyPasses(problems);
	return { report: { sessionId: id, ok, problems, records, bytes }, rebuilt };
}
