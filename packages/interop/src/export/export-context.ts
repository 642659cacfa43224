import { buildContextFromPath, parentSeqOf, type SessionContext, type StoredRecord } from "@agent/session-format";
import { invalidArgument } from "../errors.js";
import type { ExportInfo, RecordSource } from "./record-source.js";

/**
 * The context of a session's active branch (its leaf: `info.leafSeq`, else the last record), as
 * `buildContext` gives it, read in two passes so that only the live part is held in memory: the
 * first keeps each record's parent and the compactions, the second the records of the path from
 * the latest compaction's first kept record on.
 */
export async function exportContext(source: RecordSource, info: ExportInfo): Promise<SessionContext> {
	const parents = new Map<number, number | null>();
	const firstKept = new Map<number, number>();
	let last = 0;
	for await (const record of source()) {
		parents.set(record.seq, parentSeqOf(record));
		if (record.recordType === "compaction") firstKept.set(record.seq, record.firstKeptSeq);
		last = record.seq;
	}
	const leaf = info.leafSeq !== undefined && parents.has(info.leafSeq) ? info.leafSeq : last;
	const path: number[] = [];
	for (let seq: number | null = leaf; seq !== null && seq > 0; seq = parents.get(seq) ?? null) path.push(seq);
	path.reverse();
	let start = 0;
	for (let index = path.length - 1; index >= 0; index--) {
		const kept = firstKept.get(path[index] as number);
		if (kept === undefined) continue;
		const first = path.findIndex((seq) => seq >= kept);
		start = first >= 0 && first < index ? first : index;
		break;
	}
	const wanted = new Set(path.slice(start));
	const records: StoredRecord[] = [];
	for await (const record of source()) if (wanted.has(record.seq)) records.push(record);
	records.sort((a, b) => a.seq - b.seq);
	return buildContextFromPath(records, info.model ? { defaults: { model: splitModel(info.model) } } : {});
}

/** The context an agent resumes from: refused when it holds no message (the agent would have nothing to resume). */
export async function resumableContext(source: RecordSource, info: ExportInfo, agent: string): Promise<SessionContext> {
	const context = await exportContext(source, info);
	if (context.messages.length === 0) {
		throw invalidArgument(
			`session ${info.id} has no message on its active branch, so ${agent} would have nothing to resume; export one with messages, or use --format jsonl to keep everything`,
		);
	}
	return context;
}

function splitModel(model: string): { provider: string; modelId: string } {
	const slash = model.indexOf("/");
	return slash > 0
		? { provider: model.slice(0, slash), modelId: model.slice(slash + 1) }
		: { provider: "unknown", modelId: model };
}
