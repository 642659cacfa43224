import type { OpenedSession, OpenOptions, SessionMetadata } from "@agent/session-format";
import { contextOf } from "@agent/session-format/store-kit";
import { invalidArgument } from "./errors.js";
import { findRecord, openingRows, walkRows } from "./read-path.js";
import { type Db, decodeRow, type RecordRow } from "./rows.js";
import { loadMetadata, where } from "./session-rows.js";

/** Above every seq a session can hold (seq is a PostgreSQL integer). */
const MAX_SEQ = 2_147_483_647;

/**
 * Resume: the metadata, the path from the latest compaction's firstKeptSeq to the leaf, read by
 * descending seq only as far as it needs (walkRows), and the context built from it.
 */
export async function openSession(db: Db, id: string, options: OpenOptions): Promise<OpenedSession> {
	const read = { onProblem: options.onProblem };
	let header: RecordRow | undefined;
	let metadata: SessionMetadata;
	let walked: Awaited<ReturnType<typeof walkRows>>;
	if (options.leafSeq !== undefined) {
		metadata = await loadMetadata(db, id);
		const leafSeq = options.leafSeq;
		if (!Number.isInteger(leafSeq) || leafSeq < 0 || leafSeq > metadata.lastSeq) {
			throw invalidArgument(
				`cannot open session ${id} at seq ${String(leafSeq)}: it holds seqs 1..${metadata.lastSeq}`,
			);
		}
		walked = await walkRows(db, id, { leafSeq, stopAtCompaction: true }, read);
		if (walked.start === undefined && leafSeq > 0) {
			throw invalidArgument(`cannot open session ${id} at seq ${leafSeq}: no readable record has that seq`);
		}
	} else {
		// The active leaf is the log's last record: the metadata, the newest rows and the header in one statement.
		const opening = await openingRows(db, id);
		header = opening.header;
		metadata = opening.metadata ?? (await loadMetadata(db, id));
		const walk = (leafSeq: number, firstPage?: readonly RecordRow[]) =>
			walkRows(db, id, { leafSeq, stopAtCompaction: true, leafFallsBack: true }, read, firstPage);
		walked = await walk(MAX_SEQ, opening.newest);
		// A writer appended in between (a rebuilt cache): the path the metadata describes.
		if ((walked.start?.seq ?? 0) > metadata.lastSeq) walked = await walk(metadata.lastSeq);
	}
	const path = walked.items;
	const first = path[0]?.seq === 1 ? path[0] : header ? decodeRow(header, {}, where(id)) : await findRecord(db, id, 1);
	return { metadata, path, context: contextOf(path, first, metadata, options) };
}
