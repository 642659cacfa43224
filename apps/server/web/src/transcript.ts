import type { SessionTree, StoredRecord } from "@agent/session-format/reading";
import { siblingsOf } from "./branches.js";
import { hasRow } from "./shown-records.js";

export { hasRow };

/** One row of the transcript list: a record, a branch switcher, or a note. */
export type TranscriptRow =
	| { kind: "record"; key: number; record: StoredRecord }
	| { kind: "switcher"; key: string; seq: number; siblings: readonly number[] }
	| { kind: "older"; key: "older" }
	| { kind: "hint"; key: string; text: string }
	| { kind: "streaming"; key: "streaming" };

export interface TranscriptInput {
	tree: SessionTree;
	/** The leaf whose path is shown. */
	leaf: number | null;
	/** The session's active leaf (where the next message goes). */
	activeLeaf: number | null;
	/** True once every record of the session is loaded (else older ones are still coming). */
	complete: boolean;
	streaming: boolean;
}

/**
 * The rows for the path to the leaf: its records (tool calls and results included), a switcher
 * wherever the path passes a branch point, a note while older records are still loading, and
 * the reply streaming in. Pure data: the list draws only the rows in view.
 */
export function transcriptRows(input: TranscriptInput, cache?: PathRowsCache): TranscriptRow[] {
	const { tree, leaf } = input;
	const rows: TranscriptRow[] = leaf !== null && tree.has(leaf) ? [...pathRows(input, cache)] : [];
	if (rows.length === 0 && !input.streaming) {
		rows.push({ kind: "hint", key: "empty", text: "No messages yet. Say something below." });
	}
	if (input.streaming) rows.push({ kind: "streaming", key: "streaming" });
	if (leaf !== null && input.activeLeaf !== null && leaf !== input.activeLeaf) {
		rows.push({
			kind: "hint",
			key: "other-branch",
			text: `You are viewing another branch; new messages continue the active branch (#${input.activeLeaf}).`,
		});
	}
	return rows;
}

/**
 * The rows of the path to a leaf, kept for the next call: when the new leaf is a child of the
 * last one (a record appended where the view is), its rows are the last ones plus its own, so a
 * long session does not walk its whole path again for every record of a turn.
 */
export interface PathRowsCache {
	tree?: SessionTree;
	leaf?: number;
	complete?: boolean;
	/** The tree's size then: the rows are reused only when nothing else was added since. */
	size?: number;
	rows?: TranscriptRow[];
}

function pathRows(input: TranscriptInput, cache: PathRowsCache = {}): TranscriptRow[] {
	const { tree } = input;
	const leaf = input.leaf as number;
	const record = tree.get(leaf) as StoredRecord;
	const reuse =
		cache.rows !== undefined &&
		cache.tree === tree &&
		cache.complete === input.complete &&
		cache.leaf !== undefined &&
		((cache.leaf === leaf && cache.size === tree.size) ||
			(tree.parentOf(leaf) === cache.leaf && cache.size === tree.size - 1));
	let rows: TranscriptRow[];
	if (reuse && cache.leaf === leaf) {
		rows = cache.rows as TranscriptRow[];
	} else if (reuse && siblingsOf(tree, leaf).length === 1) {
		rows = hasRow(record)
			? [...(cache.rows as TranscriptRow[]), { kind: "record", key: leaf, record }]
			: (cache.rows as TranscriptRow[]);
	} else {
		rows = [];
		const path = tree.path(leaf);
		const first = path[0];
		const reachesRoot = first !== undefined && tree.parentOf(first.seq) === null;
		if (!reachesRoot && !input.complete) rows.push({ kind: "older", key: "older" });
		for (const step of path) {
			const siblings = siblingsOf(tree, step.seq);
			if (siblings.length > 1) rows.push({ kind: "switcher", key: `switch-${step.seq}`, seq: step.seq, siblings });
			if (hasRow(step)) rows.push({ kind: "record", key: step.seq, record: step });
		}
	}
	Object.assign(cache, { tree, leaf, complete: input.complete, size: tree.size, rows });
	return rows;
}

/** A first guess of a row's height, before it is drawn and measured. */
export function estimateRowHeight(row: TranscriptRow): number {
	if (row.kind !== "record") return row.kind === "streaming" ? 90 : 36;
	const record = row.record;
	if (record.recordType !== "message") return 44;
	if (record.role === "toolResult") return 44;
	let chars = 0;
	for (const block of record.content) if (block.type === "text") chars += block.text.length;
	return 64 + Math.min(1200, Math.ceil(chars / 90) * 22);
}
