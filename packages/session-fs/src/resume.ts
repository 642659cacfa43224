import type {
	OpenedSession,
	OpenOptions,
	RecordProblem,
	SessionMetadata,
	StoredRecord,
} from "@agent/session-format/reading";
import { cloneMetadata, contextOf } from "@agent/session-format/store-kit";
import { invalidArgument } from "./errors.js";
import { readFirstRecord } from "./first-record.js";
import type { LogView } from "./log-view.js";
import { type BackwardPath, walkPathBackward } from "./path-walk.js";

/**
 * Resume: metadata, the live part of the path, and the context built from it. The active leaf
 * and the context's defaults come from the log itself (its last records, its first line), never
 * from metadata.json alone, so a resume gives what a full forward scan of the log gives.
 */
export async function resumeSession(
	view: LogView,
	options: OpenOptions,
	read: { chunkBytes: number; maxLineBytes: number; where: string },
): Promise<OpenedSession> {
	const metadata = view.state.metadata;
	// A line is reported once, however many walks pass over it.
	const reported = new Set<number>();
	const given = options.onProblem;
	const onProblem = given
		? (problem: RecordProblem) => {
				if (reported.has(problem.byteOffset)) return;
				reported.add(problem.byteOffset);
				given(problem);
			}
		: undefined;
	const walk = async (leaf: number, leafFallsBack: boolean): Promise<BackwardPath<StoredRecord>> =>
		view.fd === undefined || leaf === 0
			? { items: [] }
			: await walkPathBackward(
					view.fd,
					{
						leafSeq: leaf,
						stopAtCompaction: true,
						leafFallsBack,
						end: view.state.size,
						chunkBytes: read.chunkBytes,
						maxLineBytes: read.maxLineBytes,
						onProblem,
						where: read.where,
					},
					(record) => record,
				);
	let walked: BackwardPath<StoredRecord>;
	if (options.leafSeq !== undefined) {
		const leafSeq = options.leafSeq;
		if (!Number.isInteger(leafSeq) || leafSeq < 0 || leafSeq > metadata.lastSeq) {
			throw invalidArgument(
				`cannot open session ${metadata.id} at seq ${String(leafSeq)}: it holds seqs 1..${metadata.lastSeq}`,
			);
		}
		walked = await walk(leafSeq, false);
		if (walked.start === undefined && leafSeq > 0) {
			throw invalidArgument(`cannot open session ${metadata.id} at seq ${leafSeq}: no readable record has that seq`);
		}
	} else {
		// The active leaf: the last readable record, or the leaf a side record there stands for.
		walked = await walk(metadata.lastSeq, true);
		const legacy = legacyLeaf(metadata, walked);
		if (legacy !== undefined) {
			const moved = await walk(legacy, false);
			if (moved.start !== undefined) walked = moved;
		}
	}
	const path = walked.items;
	const first =
		path[0]?.seq === 1
			? path[0]
			: view.fd === undefined
				? undefined
				: await readFirstRecord(view.fd, view.state.size, read.maxLineBytes);
	return { metadata: cloneMetadata(metadata), path, context: contextOf(path, first, metadata, options) };
}

/**
 * A leaf moved by "branch" before leaf moves were records lives only in metadata.json's leafSeq.
 * A store now never leaves leafSeq set while the last record is a tree node (a node is the active
 * leaf), so that combination can only be such an old move, and it is honoured as before.
 */
function legacyLeaf(metadata: SessionMetadata, walked: BackwardPath<StoredRecord>): number | undefined {
	const leaf = metadata.leafSeq;
	const start = walked.start;
	if (leaf === undefined || start === undefined || start.side || start.seq !== metadata.lastSeq) return undefined;
	return leaf === start.seq ? undefined : leaf;
}
