import type { RecordInput } from "@agent/session-format";
import { invalidSource, sourceLabel } from "../errors.js";
import { isObject, parseJsonLines, stringField } from "../json-lines.js";
import { RecordList } from "../record-list.js";
import type { ConvertedSession, ConvertOptions } from "../types.js";
import { Warnings } from "../warnings.js";
import { codexUsage } from "./codex-content.js";
import { CodexItemReader, type ItemSource } from "./codex-items.js";

/** Event messages that restate what response items already hold (the UI's copy of them). */
const RESTATING_EVENTS = new Set([
	"user_message",
	"agent_message",
	"agent_reasoning",
	"agent_reasoning_raw_content",
	"agent_reasoning_section_break",
	"context_compacted",
	"token_count",
]);

const RESPONSE_ITEM_TYPES = new Set([
	"message",
	"reasoning",
	"function_call",
	"function_call_output",
	"custom_tool_call",
	"custom_tool_call_output",
	"local_shell_call",
	"web_search_call",
	"ghost_snapshot",
	"compaction",
]);

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

/**
 * Converts a Codex rollout (`{timestamp, type, payload}` lines) to a linear session.
 * session_meta is kept as record 1; response items become messages (one model response's
 * items gathered into one assistant message); turn_context yields model and thinking-level
 * changes; a `compacted` line becomes our compaction, followed by its replacement_history.
 * Older rollouts (a bare meta line, then bare response items) are read too.
 */
export function convertCodex(lines: readonly string[], options: ConvertOptions = {}): ConvertedSession {
	const warnings = new Warnings();
	const list = new RecordList(warnings);
	const reader = new CodexItemReader(list, warnings);
	let meta: Record<string, unknown> | undefined;
	let effort: string | undefined;
	let modelSet: string | undefined;
	let restated = 0;
	let contextTokens = 0;
	for (const { line, value } of parseJsonLines(lines, warnings)) {
		if (!isObject(value)) {
			reader.flush();
			warnings.add("a line that is not a JSON object; kept as a custom record (codex:line)", line);
			list.custom("codex:line", value);
			continue;
		}
		const { type, payload, timestamp } = unwrap(value, meta === undefined && list.lastSeq === 0);
		const source: ItemSource = { line, timestamp };
		const isPromptEvent = type === "event_msg" && payload.type === "user_message";
		if (type !== "response_item" && !isPromptEvent) reader.justPrompted = false;
		if (type === "session_meta") {
			reader.flush();
			if (meta) warnings.add("another session_meta line; kept as a custom record (codex:session_meta)", line);
			else {
				meta = payload;
				reader.provider = stringField(payload, "model_provider") ?? reader.provider;
			}
			list.custom("codex:session_meta", payload, undefined, timestamp ?? stringField(payload, "timestamp"));
		} else if (type === "response_item") {
			reader.read(payload, source);
		} else if (type === "turn_context") {
			reader.flush();
			const model = stringField(payload, "model");
			if (model && model !== modelSet) {
				list.add(
					stamp({ recordType: "model_change", provider: reader.provider, modelId: model }, timestamp),
					undefined,
					line,
				);
				modelSet = model;
			}
			reader.model = model ?? reader.model;
			const nextEffort = stringField(payload, "effort") ?? stringField(payload, "reasoning_effort");
			if (nextEffort && nextEffort !== effort) {
				list.add(stamp({ recordType: "thinking_level_change", thinkingLevel: nextEffort }, timestamp), undefined, line);
				effort = nextEffort;
			}
			warnings.add(
				"turn_context lines (cwd, policies) have no equivalent; kept as custom records (codex:turn_context)",
				line,
			);
			list.custom("codex:turn_context", payload, undefined, timestamp);
		} else if (type === "inter_agent_communication") {
			reader.agentMessage(payload, source, "codex:inter_agent_communication");
		} else if (type === "compacted") {
			compacted(payload, source, list, reader, warnings, contextTokens);
		} else if (type === "event_msg") {
			const eventType = stringField(payload, "type");
			if (eventType === "token_count") {
				const info = isObject(payload.info) ? payload.info : undefined;
				const usage = codexUsage(info?.last_token_usage);
				if (usage) {
					reader.usage(usage);
					contextTokens = usage.totalTokens;
					// Codex counts tokens when a model response completes: the next item starts another one.
					reader.flush();
				}
			}
			if (eventType === "user_message" && reader.eventPrompt(payload, source)) {
				warnings.add(
					"a prompt held only by an event_msg user_message (no response item restates it); imported as the user message",
					line,
				);
			} else if (eventType && RESTATING_EVENTS.has(eventType)) restated++;
			else if (eventType === "thread_rolled_back") {
				reader.flush();
				const dropped = reader.turns.rollBack(Number(payload.num_turns));
				warnings.add(
					`a rollback (thread_rolled_back) drops ${dropped} turn(s) from what Codex sends; they stay in the session on a branch of their own`,
					line,
				);
				list.custom("codex:event_msg", payload, undefined, timestamp);
			} else {
				// The response being gathered is complete before anything else is written: a record's
				// place must not depend on lines that come after it.
				reader.flush();
				warnings.add(
					"event_msg lines other than restated items have no equivalent; kept as custom records (codex:event_msg)",
					line,
				);
				list.custom("codex:event_msg", payload, undefined, timestamp);
			}
		} else {
			reader.flush();
			warnings.add(
				`a ${JSON.stringify(type)} line has no equivalent; kept as a custom record (codex:${String(type)})`,
				line,
			);
			list.custom(`codex:${String(type)}`, value, undefined, timestamp);
		}
	}
	reader.flush();
	if (restated > 0) {
		warnings.add(
			`${restated} event_msg lines restate response items (user_message, agent_message, agent_reasoning, token_count, context_compacted) and were not imported again`,
		);
	}
	const sourceId = stringField(meta ?? {}, "id") ?? UUID.exec(options.sourcePath ?? "")?.[0];
	if (!sourceId) {
		throw invalidSource(
			sourceLabel(options.sourcePath),
			"has no session_meta line with an id, so it cannot be imported idempotently",
			"Check that this is a Codex rollout (~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl), or use --from auto",
		);
	}
	const result: ConvertedSession = { format: "codex", sourceId, records: list.records, warnings: warnings.list() };
	const createdAt = stringField(meta ?? {}, "timestamp") ?? list.records[0]?.timestamp;
	if (createdAt) result.createdAt = createdAt;
	const cwd = stringField(meta ?? {}, "cwd");
	if (cwd) result.cwd = cwd;
	if (modelSet) result.model = `${reader.provider}/${modelSet}`;
	const parent = parentThreadOf(meta);
	if (parent && parent !== sourceId) result.parentSourceId = parent;
	return result;
}

/** A sub-agent's rollout names the thread that spawned it (`parent_thread_id`, or its source's thread_spawn). */
function parentThreadOf(meta: Record<string, unknown> | undefined): string | undefined {
	if (!meta) return undefined;
	const direct = stringField(meta, "parent_thread_id");
	if (direct) return direct;
	const source = isObject(meta.source) ? meta.source : undefined;
	const subagent = source && isObject(source.subagent) ? source.subagent : undefined;
	const spawn = subagent && isObject(subagent.thread_spawn) ? subagent.thread_spawn : undefined;
	return spawn ? stringField(spawn, "parent_thread_id") : undefined;
}

/** The compaction, then the replacement history that replaces everything before it on replay. */
function compacted(
	payload: Record<string, unknown>,
	source: ItemSource,
	list: RecordList,
	reader: CodexItemReader,
	warnings: Warnings,
	tokensBefore: number,
): void {
	reader.flush();
	const message = stringField(payload, "message") ?? "";
	const history = Array.isArray(payload.replacement_history) ? payload.replacement_history : undefined;
	if (!history) {
		warnings.add(
			"a compaction without replacement_history: Codex rebuilds the kept user messages from its own rules; only the summary is kept",
			source.line,
		);
	}
	const seq = list.nextSeq;
	list.add(
		stamp(
			{
				recordType: "compaction",
				summary: message,
				firstKeptSeq: seq,
				tokensBefore,
				readFiles: [],
				modifiedFiles: [],
			},
			source.timestamp,
		),
		undefined,
		source.line,
	);
	for (const item of history ?? []) {
		if (isObject(item)) reader.read(item, source, message);
	}
	reader.flush();
}

/** A line as (type, payload, timestamp); older rollouts have a bare meta line and bare response items. */
function unwrap(
	value: Record<string, unknown>,
	first: boolean,
): { type: unknown; payload: Record<string, unknown>; timestamp: string | undefined } {
	const timestamp = stringField(value, "timestamp");
	if (isObject(value.payload) && typeof value.type === "string")
		return { type: value.type, payload: value.payload, timestamp };
	if (first && typeof value.id === "string" && value.type === undefined)
		return { type: "session_meta", payload: value, timestamp };
	if (typeof value.type === "string" && RESPONSE_ITEM_TYPES.has(value.type)) {
		return { type: "response_item", payload: value, timestamp };
	}
	return { type: value.type ?? value.record_type, payload: value, timestamp };
}

function stamp(record: RecordInput, timestamp: string | undefined): RecordInput {
	if (timestamp) record.timestamp = timestamp;
	return record;
}
