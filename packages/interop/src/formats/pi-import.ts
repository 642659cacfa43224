import { invalidSource, sourceLabel } from "../errors.js";
import { isObject, parseJsonLines, type SourceLine, stringField } from "../json-lines.js";
import { RecordList } from "../record-list.js";
import type { ConvertedSession, ConvertOptions } from "../types.js";
import { Warnings } from "../warnings.js";
import { mapPiEntry, type PiEntryContext } from "./pi-entries.js";

/** The customType of the record that keeps a pi session header. */
export const PI_HEADER_TYPE = "pi:session";

/**
 * Converts a pi-coding-agent session file (v1, v2 or v3) to records.
 *
 * Record 1 keeps the header; every entry becomes one record in file order (a few gain a
 * custom record beside them), its parentId mapped to a parentSeq (roots hang from the
 * header). v1 files have no ids: each entry's parent is the one before it, and a compaction's
 * firstKeptEntryIndex counts the file's lines, header included. pi's active leaf is the last
 * entry; it is ours too.
 */
export function convertPi(lines: readonly string[], options: ConvertOptions = {}): ConvertedSession {
	const warnings = new Warnings();
	const parsed = parseJsonLines(lines, warnings);
	const where = sourceLabel(options.sourcePath);
	const first = parsed[0];
	const header = first?.value;
	if (!first || !isObject(header) || header.type !== "session" || typeof header.id !== "string") {
		throw invalidSource(
			`${where} line ${first?.line ?? 1}`,
			'is not a pi session header ({"type":"session","id":...})',
			"Check that this is a pi session file, or use --from auto to detect the format",
		);
	}
	const version = typeof header.version === "number" ? header.version : 1;
	const list = new RecordList(warnings);
	const timestamp = stringField(header, "timestamp");
	const headerSeq = list.custom(PI_HEADER_TYPE, header, null, timestamp);

	const seqById = new Map<string, number>();
	const seqByIndex = new Map<number, number>();
	const laterIds = collectIds(parsed, version);
	const continueAt = new Map<number, number>();
	const attachTo = (seq: number): number => {
		let at = seq;
		for (let next = continueAt.get(at); next !== undefined; next = continueAt.get(at)) at = next;
		return at;
	};
	const ctx: PiEntryContext = {
		list,
		warnings,
		headerSeq,
		continueAt,
		seqOf: (id) => seqById.get(id),
		seqAtIndex: (index) => seqByIndex.get(index),
	};
	let previousSeq = headerSeq;
	let leafSeq = headerSeq;
	for (let index = 1; index < parsed.length; index++) {
		const { line, value: entry } = parsed[index] as SourceLine;
		if (!isObject(entry)) {
			warnings.add("a line that is not a JSON object; kept as a custom record (pi:line)", line);
			list.custom("pi:line", entry, headerSeq);
			continue;
		}
		if (entry.type === "session") {
			// pi ignores every header but the first.
			warnings.add("a second session header; kept as a custom record (pi:session)", line);
			list.custom(PI_HEADER_TYPE, entry, headerSeq, stringField(entry, "timestamp"));
			continue;
		}
		let parent = previousSeq;
		if (version >= 2) parent = resolveParent(entry.parentId, line, seqById, laterIds, headerSeq, warnings);
		const seq = mapPiEntry(entry, attachTo(parent), line, ctx);
		if (version >= 2 && typeof entry.id === "string") {
			if (seqById.has(entry.id)) warnings.add("an entry id used twice; references go to the later entry", line);
			seqById.set(entry.id, seq);
		}
		seqByIndex.set(index, seq);
		previousSeq = seq;
		leafSeq = attachTo(seq);
	}
	list.settleLeaf(leafSeq);

	const result: ConvertedSession = {
		format: "pi",
		sourceId: header.id,
		records: list.records,
		warnings: warnings.list(),
	};
	if (timestamp) result.createdAt = timestamp;
	const cwd = stringField(header, "cwd");
	if (cwd) result.cwd = cwd;
	const name = lastName(list);
	if (name) result.name = name;
	const model = lastModel(list) ?? headerModel(header);
	if (model) result.model = model;
	return result;
}

function resolveParent(
	parentId: unknown,
	line: number,
	seqById: ReadonlyMap<string, number>,
	laterIds: ReadonlySet<string>,
	headerSeq: number,
	warnings: Warnings,
): number {
	if (parentId === null || parentId === undefined) return headerSeq;
	const seq = typeof parentId === "string" ? seqById.get(parentId) : undefined;
	if (seq !== undefined) return seq;
	warnings.add(
		typeof parentId === "string" && laterIds.has(parentId)
			? "an entry whose parent comes later in the file; it becomes a root"
			: "an entry whose parent is not in the file; it becomes a root, as pi treats it",
		line,
	);
	return headerSeq;
}

function collectIds(parsed: readonly SourceLine[], version: number): Set<string> {
	const ids = new Set<string>();
	if (version < 2) return ids;
	for (const { value } of parsed) if (isObject(value) && typeof value.id === "string") ids.add(value.id);
	return ids;
}

/** The name the latest session_info gives (pi trims it; an empty name clears it). */
function lastName(list: RecordList): string | undefined {
	for (let i = list.records.length - 1; i >= 0; i--) {
		const record = list.records[i];
		if (record?.recordType === "session_info") return record.name?.trim() || undefined;
	}
	return undefined;
}

function lastModel(list: RecordList): string | undefined {
	for (let i = list.records.length - 1; i >= 0; i--) {
		const record = list.records[i];
		if (record?.recordType === "model_change") return `${record.provider}/${record.modelId}`;
		if (record?.recordType === "message" && record.role === "assistant" && record.provider && record.model) {
			return `${record.provider}/${record.model}`;
		}
	}
	return undefined;
}

function headerModel(header: Record<string, unknown>): string | undefined {
	const provider = stringField(header, "provider");
	const modelId = stringField(header, "modelId");
	return provider && modelId ? `${provider}/${modelId}` : undefined;
}
