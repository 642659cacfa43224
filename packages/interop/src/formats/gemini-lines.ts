import type { RecordInput } from "@agent/session-format";
import { isObject, parseJsonLines, stringField } from "../json-lines.js";
import { RecordList } from "../record-list.js";
import type { Warnings } from "../warnings.js";
import { geminiRecords } from "./gemini-messages.js";

/** Whether a parsed line is a Gemini CLI chat's header: `{sessionId, projectHash, startTime, ...}`. */
export function isGeminiHeader(value: unknown): boolean {
	return isObject(value) && typeof value.sessionId === "string" && typeof value.projectHash === "string";
}

/** What the JSON-lines form of a chat converts to, before the session's own fields are settled. */
export interface GeminiLinesResult {
	header: Record<string, unknown>;
	list: RecordList;
	/** The chat's fields after every `$set`, in order. */
	meta: Record<string, unknown>;
	model: string | undefined;
	/** The user messages still in the chat, in order (for a name). */
	prompts: Record<string, unknown>[];
}

/**
 * Reads Gemini CLI's JSON-lines chat (`session-*.jsonl`; a sub-agent's `chats/<parent>/<id>.jsonl`)
 * as the CLI loads it, but append-only: the header, then messages, `{"$set": {...}}` patches
 * applied in order, a message written again under the same id updating the records it gave,
 * `{"$rewindTo": id}` dropping that message and everything after it (here: what follows continues
 * on a branch from before it), and `$set.messages` replacing the whole chat (a branch from the header).
 */
export function readGeminiLines(lines: readonly string[], warnings: Warnings): GeminiLinesResult | undefined {
	const parsed = parseJsonLines(lines, warnings);
	const headerAt = parsed.findIndex(({ value }) => isGeminiHeader(value));
	if (headerAt < 0) return undefined;
	const header = parsed[headerAt]?.value as Record<string, unknown>;
	const list = new RecordList(warnings);
	const { messages: _messages, ...fields } = header;
	list.custom("gemini:session", fields, null, stringField(header, "startTime"));
	const reader = new LinesReader(list, warnings, { ...fields });
	if (Array.isArray(header.messages))
		for (const message of header.messages) reader.message(message, parsed[headerAt]?.line);
	for (const { line, value } of parsed.slice(headerAt + 1)) reader.line(value, line);
	reader.finish();
	return { header, list, meta: reader.meta, model: reader.model, prompts: reader.prompts() };
}

class LinesReader {
	/** The records each message still in the chat gave, by message id, in chat order. */
	private readonly live = new Map<string, { value: Record<string, unknown>; seqs: number[] }>();
	private clockOnly = 0;
	model: string | undefined;

	constructor(
		private readonly list: RecordList,
		private readonly warnings: Warnings,
		readonly meta: Record<string, unknown>,
	) {}

	line(value: unknown, line: number): void {
		if (!isObject(value)) {
			this.warnings.add("a line that is not a JSON object; kept as a custom record (gemini:line)", line);
			this.list.custom("gemini:line", value);
		} else if (typeof value.$rewindTo === "string") this.rewind(value.$rewindTo, line);
		else if (isObject(value.$set)) this.set(value.$set, line);
		else if (typeof value.id === "string") this.message(value, line);
		else if (isGeminiHeader(value)) {
			Object.assign(this.meta, value);
			this.warnings.add("another header line (the chat was rewritten); kept as a custom record (gemini:session)", line);
			this.list.custom("gemini:session", value);
		} else {
			this.warnings.add("a line of no known kind; kept as a custom record (gemini:line)", line);
			this.list.custom("gemini:line", value);
		}
	}

	message(value: unknown, line: number | undefined): void {
		if (!isObject(value) || typeof value.id !== "string") return;
		this.model = stringField(value, "model") ?? this.model;
		const records = geminiRecords(value, this.model) ?? [this.cliMessage(value, line)];
		const known = this.live.get(value.id);
		if (!known) {
			this.live.set(value.id, { value, seqs: records.map((record) => this.list.add(record, undefined, line)) });
			return;
		}
		known.value = value;
		records.forEach((record, index) => {
			const seq = known.seqs[index];
			const old = seq === undefined ? undefined : this.list.get(seq);
			if (seq !== undefined && old && sameKind(old, record)) this.list.replace(seq, record, line);
			else if (seq === undefined) known.seqs.push(this.list.add(record, undefined, line));
			else this.warnings.add("a message written again as another kind of message; the first version is kept", line);
		});
		if (records.length < known.seqs.length) {
			this.warnings.add("a message written again with fewer tool results; the earlier ones are kept", line);
		}
	}

	finish(): void {
		if (this.clockOnly > 0) {
			this.warnings.add(`${this.clockOnly} $set lines only moved lastUpdated; applied, not kept as records`);
		}
	}

	/** The user messages still in the chat. */
	prompts(): Record<string, unknown>[] {
		return [...this.live.values()].map((entry) => entry.value).filter((value) => value.type === "user");
	}

	private cliMessage(value: Record<string, unknown>, line: number | undefined): RecordInput {
		const customType = `gemini:${String(value.type)}`;
		this.warnings.add(
			`${String(value.type)} messages are the CLI's own; kept as custom records (${customType}), not sent to the LLM`,
			line,
		);
		const record: RecordInput = { recordType: "custom", customType, data: value };
		const timestamp = stringField(value, "timestamp");
		if (timestamp) record.timestamp = timestamp;
		return record;
	}

	private rewind(id: string, line: number): void {
		const ids = [...this.live.keys()];
		const at = ids.indexOf(id);
		const first = at < 0 ? undefined : this.live.get(id)?.seqs[0];
		const record = first === undefined ? undefined : this.list.get(first);
		const parent = first === undefined ? 1 : record?.parentSeq === undefined ? first - 1 : record.parentSeq;
		const dropped = at < 0 ? ids : ids.slice(at);
		for (const gone of dropped) this.live.delete(gone);
		this.list.branchFrom(parent);
		this.list.custom("gemini:rewind", { $rewindTo: id });
		this.warnings.add(
			"a rewind ($rewindTo) drops messages from the chat; they stay in the session on a branch of their own",
			line,
		);
	}

	private set(patch: Record<string, unknown>, line: number): void {
		const { messages, ...fields } = patch;
		Object.assign(this.meta, fields);
		if (Array.isArray(messages)) {
			// A checkpoint: the chat is now exactly these messages.
			this.live.clear();
			this.list.branchFrom(1);
			this.list.custom("gemini:set", { ...fields, messages: messages.length });
			this.warnings.add(
				"a $set of all messages (a checkpoint) replaces the chat; the earlier records stay on a branch of their own",
				line,
			);
			for (const message of messages) this.message(message, line);
			return;
		}
		const keys = Object.keys(fields);
		if (keys.length === 1 && keys[0] === "lastUpdated") {
			this.clockOnly++;
			return;
		}
		this.warnings.add("$set lines update the chat's own fields; kept as custom records (gemini:set)", line);
		this.list.custom("gemini:set", patch);
	}
}

/** Whether a newer version of a record is the same kind of record (so it can replace it in place). */
function sameKind(old: RecordInput, next: RecordInput): boolean {
	if (old.recordType !== next.recordType) return false;
	if (old.recordType === "message" && next.recordType === "message") {
		return old.role === next.role && (old.role !== "toolResult" || old.toolCallId === next.toolCallId);
	}
	return true;
}
