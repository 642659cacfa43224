import type { RecordInput } from "@agent/session-format";
import { isoTime, promptName } from "../content.js";
import { invalidSource, sourceLabel } from "../errors.js";
import { isObject, stringField } from "../json-lines.js";
import { RecordList } from "../record-list.js";
import type { ConvertedSession, ConvertOptions } from "../types.js";
import { Warnings } from "../warnings.js";
import { assistantRecords, type OpenCodeMessage, summaryText, userRecords } from "./opencode-parts.js";

/** One OpenCode session as `opencode export <id>` prints it: `{info, messages: [{info, parts}]}`. */
export interface OpenCodeSession {
	info: Record<string, unknown>;
	messages: OpenCodeMessage[];
}

/** Titles OpenCode gives a session until it names it: they name nothing. */
const PLACEHOLDER_TITLE = /^(New session|Child session) - \d{4}-/;

/** The `opencode export` document in `lines`, when it is one. */
export function parseOpenCodeExport(lines: readonly string[]): OpenCodeSession | undefined {
	const whole = lines.join("\n").trim();
	if (!whole.startsWith("{")) return undefined;
	try {
		const value: unknown = JSON.parse(whole);
		if (
			!isObject(value) ||
			!isObject(value.info) ||
			typeof value.info.id !== "string" ||
			!Array.isArray(value.messages)
		) {
			return undefined;
		}
		const messages = value.messages.flatMap((message) =>
			isObject(message) && isObject(message.info)
				? [{ info: message.info, parts: (Array.isArray(message.parts) ? message.parts : []).filter(isObject) }]
				: [],
		);
		return { info: value.info, messages };
	} catch {
		return undefined;
	}
}

/** Converts `opencode export <id>` output (one JSON document). */
export function convertOpenCode(lines: readonly string[], options: ConvertOptions = {}): ConvertedSession {
	const session = parseOpenCodeExport(lines);
	if (!session) {
		throw invalidSource(
			sourceLabel(options.sourcePath),
			'is not an OpenCode session export ({"info":{"id":"ses_…"},"messages":[…]})',
			"Export one with `opencode export <session id>`, import the database (~/.local/share/opencode/opencode.db), or use --from auto",
		);
	}
	return convertOpenCodeSession(session);
}

/**
 * Converts one OpenCode session (from an export or the database) to a linear session, as
 * OpenCode builds what it sends: user and assistant messages from their parts (see
 * opencode-parts); a compaction (a user message with a `compaction` part answered by a finished
 * `summary` assistant message) becomes our compaction, keeping the messages from its
 * `tail_start_id` on; a reverted session ends its active path before the reverted message. The
 * session's info is record 1 (`opencode:session`).
 */
export function convertOpenCodeSession(session: OpenCodeSession): ConvertedSession {
	const { info, messages } = session;
	const warnings = new Warnings();
	const list = new RecordList(warnings);
	const time = isObject(info.time) ? info.time : {};
	const createdAt = isoTime(time.created);
	list.custom("opencode:session", info, null, createdAt);
	const seqOf = new Map<string, number>();
	const requests = new Map<string, { tail?: string; manual: boolean }>();
	let model: string | undefined;
	let firstPrompt: string | undefined;
	for (const message of messages) {
		const id = stringField(message.info, "id") ?? "";
		const at = isoTime(isObject(message.info.time) ? message.info.time.created : undefined);
		const add = (record: RecordInput) => {
			if (at) record.timestamp = at;
			const seq = list.add(record);
			if (!seqOf.has(id)) seqOf.set(id, seq);
			return seq;
		};
		const aside = (parts: Record<string, unknown>[]) => {
			if (parts.length === 0) return;
			const types = [...new Set(parts.map((part) => String(part.type)))].join(", ");
			warnings.add(`message parts without an equivalent (${types}); kept in custom records (opencode:parts)`);
			add({ recordType: "custom", customType: "opencode:parts", data: { messageID: id, parts } });
		};
		const role = message.info.role;
		const request = message.parts.find((part) => part.type === "compaction");
		if (role === "user" && request) {
			requests.set(id, { tail: stringField(request, "tail_start_id"), manual: request.auto === false });
			add({ recordType: "custom", customType: "opencode:compaction-request", data: message });
		} else if (role === "user") {
			const { records, aside: rest } = userRecords(message);
			for (const record of records) add(record);
			aside(rest);
			firstPrompt ??= summaryText(message);
		} else if (role === "assistant" && isFinishedSummary(message, requests)) {
			const request = requests.get(String(message.info.parentID));
			const kept = request?.tail === undefined ? undefined : seqOf.get(request.tail);
			const record: RecordInput = {
				recordType: "compaction",
				summary: summaryText(message),
				firstKeptSeq: kept ?? list.nextSeq,
				tokensBefore: 0,
				readFiles: [],
				modifiedFiles: [],
				trigger: request?.manual ? "manual" : "threshold",
			};
			add(record);
		} else if (role === "assistant") {
			const { records, aside: rest } = assistantRecords(message);
			if (records.length === 0 && isObject(message.info.error)) {
				warnings.add(
					"an assistant message that failed before it said anything; kept as a custom record (opencode:message), not sent to the LLM",
				);
				add({ recordType: "custom", customType: "opencode:message", data: message });
				continue;
			}
			for (const record of records) add(record);
			aside(rest);
			const provider = stringField(message.info, "providerID");
			const modelId = stringField(message.info, "modelID");
			if (provider && modelId) model = `${provider}/${modelId}`;
		} else {
			warnings.add("a message of no known role; kept as a custom record (opencode:message)");
			add({ recordType: "custom", customType: "opencode:message", data: message });
		}
	}
	const revert = isObject(info.revert) ? stringField(info.revert, "messageID") : undefined;
	const reverted = revert === undefined ? undefined : seqOf.get(revert);
	if (reverted !== undefined) {
		warnings.add(
			"the session was reverted to an earlier message; the reverted messages stay in the session, off its active path",
		);
		list.settleLeaf(reverted - 1);
	}
	const result: ConvertedSession = {
		format: "opencode",
		sourceId: info.id as string,
		records: list.records,
		warnings: warnings.list(),
	};
	if (createdAt) result.createdAt = createdAt;
	const title = stringField(info, "title");
	const name = title && !PLACEHOLDER_TITLE.test(title) ? title : promptName(firstPrompt ?? "");
	if (name) result.name = name;
	if (model) result.model = model;
	const cwd = stringField(info, "directory");
	if (cwd) result.cwd = cwd;
	const parent = stringField(info, "parentID");
	if (parent) result.parentSourceId = parent;
	return result;
}

/** A summary message answering a compaction request, finished and without error: the compaction took place. */
function isFinishedSummary(message: OpenCodeMessage, requests: ReadonlyMap<string, unknown>): boolean {
	const info = message.info;
	return (
		info.summary === true &&
		typeof info.parentID === "string" &&
		requests.has(info.parentID) &&
		info.finish !== undefined &&
		!isObject(info.error)
	);
}
