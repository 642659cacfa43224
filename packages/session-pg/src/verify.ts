import { parseRecordLine, type SessionMetadata } from "@agent/session-format";
import { type CheckedLine, checkLog, type LogCheck, lineProblemReason } from "@agent/session-format/store-kit";
import { notFound } from "./errors.js";
import { type Db, rowsForward } from "./rows.js";

/**
 * verify of one session: every row once, in seq order, through the log checker every store
 * shares (checkLog), against the metadata cache. A row is a line of session.jsonl: its seq is its
 * line number, 0 its byte offset. Memory: one parent link per record.
 */
export async function verifySession(db: Db, id: string): Promise<LogCheck> {
	const { rows } = await db.query<{ created: SessionMetadata; metadata: SessionMetadata | null }>(
		"SELECT created, metadata FROM agent_sessions WHERE id = $1",
		[id],
	);
	const row = rows[0];
	if (!row) throw notFound(id);
	return checkLog(id, linesOf(db, id), {
		// The facts of a session with no record yet (and of a log written before headers) are its created ones.
		rebuildFrom: row.created,
		cached: row.metadata === null ? { state: "missing" } : { state: "ok", metadata: row.metadata },
	});
}

async function* linesOf(db: Db, id: string): AsyncGenerator<CheckedLine> {
	let end = 0;
	for await (const page of rowsForward(db, id, 1)) {
		for (const { seq, line } of page) {
			end += Buffer.byteLength(line) + 1;
			const at = { line: seq, byteOffset: 0, end };
			const parsed = parseRecordLine(line);
			if (!parsed.ok) yield { kind: "damaged", torn: false, reason: lineProblemReason(parsed.problem), ...at };
			else if (parsed.record.recordType === "opaque") {
				yield { kind: "record", record: parsed.record, opaque: parsed.record.reason, ...at };
			} else yield { kind: "record", record: parsed.record, ...at };
		}
	}
}
