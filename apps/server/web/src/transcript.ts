import type { CompactionRecord, SessionTree, StoredRecord } from "@agent/session-format/reading";
import { siblingsOf } from "./branches.js";
import { hasRow } from "./shown-records.js";

export { hasRow };

/** The results of a message's tool calls, by call id (a call and its result are shown as one unit). */
export type ToolResults = ReadonlyMap<string, StoredRecord>;

/** One row of the transcript list: a record, a branch switcher, a compaction divider, or a note. */
export type TranscriptRow =
	| {
			kind: "record";
			key: number;
			record: StoredRecord;
			/** Summarized by a compaction: the model sees its summary instead (shown dimmed). */
			summarized?: boolean;
			/** For a message with tool calls: their results, shown inside each call. */
			results?: ToolResults;
	  }
	| { kind: "compaction"; key: number; record: CompactionRecord }
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
 * The rows for the path to the leaf: its records, a switcher wherever the path passes a branch
 * point, each compaction as a divider just above the first message it kept (the messages above
 * it are dimmed: the model sees their summary), each tool result inside the call it answers, a
 * note while older records are still loading, and the reply streaming in. Pure data: the list
 * draws only the rows in view.
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
			text: `You are looking at another branch: a message you send continues this one (from #${leaf}), and the branch that was active (#${input.activeLeaf}) stays as it is.`,
		});
	}
	return rows;
}

/**
 * The rows of the path to a leaf, kept for the next call: when the new leaf is a child of the
 * last one (a record appended where the view is), its rows are the last ones plus its own, so a
 * long session does not walk its whole path again for every record of a turn. `changed` lists
 * the rows that call replaced (a call row that got its result): the list draws them again.
 */
export interface PathRowsCache {
	tree?: SessionTree;
	leaf?: number;
	complete?: boolean;
	/** The tree's size then: the rows are reused only when nothing else was added since. */
	size?: number;
	rows?: TranscriptRow[];
	changed?: number[];
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
	cache.changed = [];
	if (reuse && cache.leaf === leaf) {
		rows = cache.rows as TranscriptRow[];
	} else if (reuse && siblingsOf(tree, leaf).length === 1 && record.recordType !== "compaction") {
		rows = appendRow(cache.rows as TranscriptRow[], record, { changed: cache.changed });
	} else {
		rows = walkRows(input, tree, leaf);
	}
	Object.assign(cache, { tree, leaf, complete: input.complete, size: tree.size, rows });
	return rows;
}

function walkRows(input: TranscriptInput, tree: SessionTree, leaf: number): TranscriptRow[] {
	const path = tree.path(leaf);
	const first = path[0];
	const reachesRoot = first !== undefined && tree.parentOf(first.seq) === null;
	const compactions = path.filter((step): step is CompactionRecord => step.recordType === "compaction");
	// What the model sees starts at the latest compaction's first kept record: everything above is summarized.
	const keptFrom = compactions.at(-1)?.firstKeptSeq ?? 0;
	const dividers = [...compactions].sort((a, b) => a.firstKeptSeq - b.firstKeptSeq);
	const rows: TranscriptRow[] = [];
	if (!reachesRoot && !input.complete) rows.push({ kind: "older", key: "older" });
	for (const step of path) {
		while (dividers.length > 0 && (dividers[0] as CompactionRecord).firstKeptSeq <= step.seq) {
			const divider = dividers.shift() as CompactionRecord;
			rows.push({ kind: "compaction", key: divider.seq, record: divider });
		}
		const siblings = siblingsOf(tree, step.seq);
		if (siblings.length > 1) rows.push({ kind: "switcher", key: `switch-${step.seq}`, seq: step.seq, siblings });
		if (step.recordType === "compaction") continue;
		appendRow(rows, step, { inPlace: true, summarized: step.seq < keptFrom });
	}
	return rows;
}

/**
 * The rows with `record` added at the end: a tool result goes inside the row of the message
 * whose call it answers (that row is replaced, and its key put in `changed`); anything else is
 * a row of its own. `inPlace` (a walk building its own array) changes `rows` instead of a copy.
 */
function appendRow(
	rows: TranscriptRow[],
	record: StoredRecord,
	options: { inPlace?: boolean; summarized?: boolean; changed?: number[] },
): TranscriptRow[] {
	if (!hasRow(record)) return rows;
	const next = options.inPlace ? rows : rows.slice();
	const callRow = record.recordType === "message" && record.role === "toolResult" ? callRowOf(rows, record) : -1;
	if (callRow < 0) {
		next.push({ kind: "record", key: record.seq, record, ...(options.summarized ? { summarized: true } : {}) });
		return next;
	}
	const row = rows[callRow] as Extract<TranscriptRow, { kind: "record" }>;
	const results = new Map(row.results ?? []);
	results.set((record as { toolCallId?: string }).toolCallId as string, record);
	next[callRow] = { ...row, results };
	options.changed?.push(row.key);
	return next;
}

/** The index of the row of the latest message whose call `result` answers (back to the last user message). */
function callRowOf(rows: readonly TranscriptRow[], result: StoredRecord): number {
	const callId = (result as { toolCallId?: string }).toolCallId;
	if (!callId) return -1;
	for (let index = rows.length - 1; index >= 0; index--) {
		const row = rows[index] as TranscriptRow;
		if (row.kind !== "record" || row.record.recordType !== "message") continue;
		const message = row.record;
		if (message.role === "user") return -1;
		if (message.role !== "assistant") continue;
		if (message.content.some((block) => block.type === "toolCall" && block.id === callId)) {
			return row.results?.has(callId) ? -1 : index;
		}
	}
	return -1;
}

/** A first guess of a row's height, before it is drawn and measured. */
export function estimateRowHeight(row: TranscriptRow): number {
	if (row.kind === "compaction") return 44;
	if (row.kind !== "record") return row.kind === "streaming" ? 90 : 36;
	const record = row.record;
	if (record.recordType !== "message") return 44;
	if (record.role === "toolResult") return 44;
	let chars = 0;
	let images = 0;
	for (const block of record.content) {
		if (block.type === "text") chars += block.text.length;
		if (block.type === "image") images++;
	}
	return 92 + Math.min(1200, Math.ceil(chars / 90) * 22) + images * 330;
}
