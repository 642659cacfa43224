import { estimateContentTokens, type RecordInput } from "@agent/session-format";
import { piContent, text, USER_BLOCKS } from "../content.js";
import { invalidSource, sourceLabel } from "../errors.js";
import { isObject, numberField, parseJsonLines, stringField } from "../json-lines.js";
import { RecordList } from "../record-list.js";
import type { ConvertedSession, ConvertOptions } from "../types.js";
import { Warnings } from "../warnings.js";

const MESSAGE_FIELDS = new Set(["role", "content"]);

/**
 * Converts an rfc-0064 daemon session (`sessions/{agent}_{sender}_{seq}.jsonl`): a meta line,
 * then `{role, content}` messages and `{"compact": "summary"}` markers. A marker becomes a
 * compaction that keeps nothing before it (the daemon loads from the last marker on). Lines
 * carry no times: every record gets the session's created_at. The session is keyed by agent,
 * creator and creation time, which survive the daemon's renames and meta rewrites.
 */
export function convertRfc0064(lines: readonly string[], options: ConvertOptions = {}): ConvertedSession {
	const warnings = new Warnings();
	const parsed = parseJsonLines(lines, warnings);
	const meta = parsed[0]?.value;
	if (!isObject(meta) || typeof meta.agent !== "string" || "role" in meta || "compact" in meta) {
		throw invalidSource(
			`${sourceLabel(options.sourcePath)} line ${parsed[0]?.line ?? 1}`,
			'is not an rfc-0064 meta line ({"agent":...,"created_by":...,"created_at":...})',
			"Check that this is an rfc-0064 session file, or use --from auto",
		);
	}
	const createdAt = stringField(meta, "created_at");
	const createdBy = stringField(meta, "created_by") ?? "";
	const list = new RecordList(warnings);
	list.custom("rfc0064:meta", meta, null, createdAt);
	let sinceCompaction: RecordInput[] = [];
	for (const { line, value } of parsed.slice(1)) {
		if (!isObject(value)) {
			warnings.add("a line that is not a JSON object; kept as a custom record (rfc0064:line)", line);
			list.custom("rfc0064:line", value, undefined, createdAt);
			continue;
		}
		if (typeof value.compact === "string") {
			const tokensBefore = sinceCompaction.reduce(
				(sum, record) => sum + ("content" in record ? estimateContentTokens(record.content) : 0),
				0,
			);
			const record: RecordInput = {
				recordType: "compaction",
				summary: value.compact,
				firstKeptSeq: list.nextSeq,
				tokensBefore,
				readFiles: [],
				modifiedFiles: [],
			};
			list.add(stamp(record, createdAt), undefined, line);
			sinceCompaction = [];
			continue;
		}
		const record = messageRecord(value, line, warnings);
		if (!record) {
			list.custom("rfc0064:line", value, undefined, createdAt);
			continue;
		}
		list.add(stamp(record, createdAt), undefined, line);
		sinceCompaction.push(record);
	}
	const agent = meta.agent;
	const result: ConvertedSession = {
		format: "rfc0064",
		sourceId: createdAt ? `${agent}/${createdBy}/${createdAt}` : fileStem(options.sourcePath, agent),
		identityKey: `${agent}/${createdBy}`,
		records: list.records,
		warnings: warnings.list(),
	};
	if (createdAt && !Number.isNaN(Date.parse(createdAt))) result.createdAt = createdAt;
	const title = stringField(meta, "title");
	if (title) result.name = title;
	const uptime = numberField(meta, "uptime_secs");
	if (uptime !== undefined && uptime > 0) result.uptimeSeconds = uptime;
	return result;
}

function messageRecord(value: Record<string, unknown>, line: number, warnings: Warnings): RecordInput | undefined {
	const role = value.role;
	if (value.auto_injected === true) {
		warnings.add(
			"an auto_injected message (the daemon never persists these); kept as a custom record, not sent to the LLM",
			line,
		);
		return undefined;
	}
	if (role !== "user" && role !== "assistant") {
		warnings.add(
			`a line with role ${JSON.stringify(role)} has no equivalent; kept as a custom record (rfc0064:line), not sent to the LLM`,
			line,
		);
		return undefined;
	}
	const content = typeof value.content === "string" ? [text(value.content)] : piContent(value.content, USER_BLOCKS);
	if (!content) {
		warnings.add(
			"a message whose content is neither text nor text blocks; kept as a custom record (rfc0064:line)",
			line,
		);
		return undefined;
	}
	const extra = Object.keys(value).filter((key) => !MESSAGE_FIELDS.has(key));
	if (extra.length > 0) warnings.add(`message fields without an equivalent were not kept: ${extra.join(", ")}`, line);
	return { recordType: "message", role, content };
}

function fileStem(sourcePath: string | undefined, agent: string): string {
	const stem = sourcePath
		?.split(/[\\/]/)
		.pop()
		?.replace(/\.jsonl$/, "");
	if (stem) return stem;
	throw invalidSource(
		sourceLabel(sourcePath),
		`the meta line of agent ${JSON.stringify(agent)} has no created_at and there is no file name to key the import by`,
		"Import the file by its path",
	);
}

function stamp(record: RecordInput, timestamp: string | undefined): RecordInput {
	if (timestamp) record.timestamp = timestamp;
	return record;
}
