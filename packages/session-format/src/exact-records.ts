import { InvalidRecordError } from "./errors.js";
import type { SessionMetadata } from "./metadata.js";
import { newMetadata } from "./metadata-derive.js";
import type { StoredRecord } from "./records.js";
import type { SeqGap } from "./store-contract.js";

/**
 * Checks records appended exactly as given (a copy between stores): their seqs continue
 * `lastSeq` one by one, skipping only the seqs of `gaps` (gaps the source's repair acknowledged).
 * Everything else about them was checked by the store they come from.
 */
export function checkExactSeqs(
	id: string,
	lastSeq: number,
	records: readonly StoredRecord[],
	gaps: readonly SeqGap[] = [],
): void {
	let expected = lastSeq + 1;
	records.forEach((record, index) => {
		for (let gap = gapAt(gaps, expected); gap && record.seq > expected; gap = gapAt(gaps, expected)) {
			expected = gap.to + 1;
		}
		if (record.seq !== expected) {
			throw new InvalidRecordError(
				`@agent/session-format: record ${index + 1} of the copy into session ${id} has seq ${record.seq}, but the next seq there is ${expected}; copy the records from seq ${expected} on (a gap in the source is copied only once the source store's repair(${id}) acknowledged it)`,
				{ path: "seq", index },
			);
		}
		expected++;
	});
}

function gapAt(gaps: readonly SeqGap[], seq: number): SeqGap | undefined {
	return gaps.find((gap) => gap.from === seq && gap.to >= gap.from);
}

/**
 * The metadata a session copied from another store starts with, before its records: its creation
 * facts (what a session with no record yet holds; its first record's header repeats them).
 */
export function creationFactsOf(metadata: SessionMetadata): SessionMetadata {
	const facts = newMetadata(
		metadata.id,
		{
			createdAt: metadata.createdAt,
			model: metadata.model,
			source: metadata.source,
			...(metadata.name !== undefined ? { name: metadata.name } : {}),
			...(metadata.cronJobId !== undefined ? { cronJobId: metadata.cronJobId } : {}),
			...(metadata.systemPromptOverride !== undefined ? { systemPromptOverride: metadata.systemPromptOverride } : {}),
			...(metadata.identityKey !== undefined ? { identityKey: metadata.identityKey } : {}),
			...(metadata.importedFrom !== undefined ? { importedFrom: metadata.importedFrom } : {}),
			...(metadata.cwd !== undefined ? { cwd: metadata.cwd } : {}),
			...(metadata.createdBy !== undefined ? { createdBy: metadata.createdBy } : {}),
		},
		new Date(metadata.createdAt),
	);
	if (metadata.forkedFrom !== undefined) facts.forkedFrom = { ...metadata.forkedFrom };
	return facts;
}
