import {
	type OpenedSession,
	type OpenOptions,
	type SessionMetadata,
	type SessionRecord,
	SessionTree,
	type StoredRecord,
} from "@agent/session-format";
import { invalidArgument } from "./errors.js";
import { contextOf } from "./resume.js";

/** open() of a session still held in memory: the same answer a log on disk would give. */
export function openInMemory(
	metadata: SessionMetadata,
	records: readonly SessionRecord[],
	options: OpenOptions,
): OpenedSession {
	const tree = new SessionTree(records);
	if (
		options.leafSeq !== undefined &&
		(!Number.isInteger(options.leafSeq) || options.leafSeq < 0 || options.leafSeq > metadata.lastSeq)
	) {
		throw invalidArgument(
			`cannot open session ${metadata.id} at seq ${options.leafSeq}: it holds seqs 1..${metadata.lastSeq}`,
		);
	}
	const leafSeq = options.leafSeq ?? tree.activeLeaf();
	const full = leafSeq === null || leafSeq === 0 ? [] : tree.path(leafSeq);
	let path: StoredRecord[] = full;
	for (let i = full.length - 1; i >= 0; i--) {
		const record = full[i] as StoredRecord;
		if (record.recordType === "compaction") {
			const firstKept = record.firstKeptSeq;
			path = full.filter((entry) => entry.seq >= firstKept);
			break;
		}
	}
	return { metadata, path, context: contextOf(path, tree.get(1), metadata, options) };
}

export async function* iterate(records: readonly StoredRecord[]): AsyncGenerator<StoredRecord> {
	for (const record of records) yield record;
}
