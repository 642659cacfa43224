import { promptName } from "../content.js";
import { invalidSource, sourceLabel } from "../errors.js";
import { isObject, parseJsonLines, stringField } from "../json-lines.js";
import { RecordList } from "../record-list.js";
import type { ConvertedSession, ConvertOptions } from "../types.js";
import { Warnings } from "../warnings.js";
import { COPILOT_PROVIDER, CopilotEvents } from "./copilot-events.js";

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

/** Whether a parsed line is a GitHub Copilot CLI session event: `{type: "<area>.<event>", data, id, timestamp, parentId}`. */
export function isCopilotEvent(value: Record<string, unknown>): boolean {
	if (typeof value.type !== "string" || !isObject(value.data) || typeof value.id !== "string") return false;
	if (value.type === "session.start")
		return typeof value.data.copilotVersion === "string" || value.data.producer === "copilot-agent";
	return /^(session|user|assistant|tool|system)\.[a-z_.]+$/.test(value.type) && "parentId" in value;
}

/**
 * Converts a GitHub Copilot CLI session (`~/.copilot/session-state/<id>/events.jsonl`, or the older
 * `<id>.jsonl`) to a linear session (see CopilotEvents). `session.start` is kept as record 1; the
 * session is keyed by its sessionId.
 */
export function convertCopilot(lines: readonly string[], options: ConvertOptions = {}): ConvertedSession {
	const warnings = new Warnings();
	const list = new RecordList(warnings);
	const events = new CopilotEvents(list, warnings);
	let start: Record<string, unknown> | undefined;
	for (const { line, value } of parseJsonLines(lines, warnings)) {
		if (!isObject(value) || typeof value.type !== "string") {
			warnings.add("a line that is not a session event; kept as a custom record (copilot:line)", line);
			list.custom("copilot:line", value);
			continue;
		}
		const data = isObject(value.data) ? value.data : {};
		if (value.type === "session.start" && !start) {
			start = data;
			list.custom("copilot:session.start", value, null, stringField(value, "timestamp"));
			const model = stringField(data, "selectedModel");
			if (model) events.model = model;
			continue;
		}
		events.read(value.type, data, value, line);
	}
	events.finish();
	const sourceId = stringField(start ?? {}, "sessionId") ?? UUID.exec(options.sourcePath ?? "")?.[0];
	if (!sourceId) {
		throw invalidSource(
			sourceLabel(options.sourcePath),
			"has no session.start event with a sessionId, so it cannot be imported idempotently",
			"Check that this is a Copilot CLI session (~/.copilot/session-state/<id>/events.jsonl), or use --from auto",
		);
	}
	const result: ConvertedSession = { format: "copilot", sourceId, records: list.records, warnings: warnings.list() };
	const createdAt = stringField(start ?? {}, "startTime");
	if (createdAt) result.createdAt = createdAt;
	const context = isObject(start?.context) ? start.context : {};
	const cwd = stringField(context, "cwd");
	if (cwd) result.cwd = cwd;
	if (events.model) result.model = `${COPILOT_PROVIDER}/${events.model}`;
	const name = promptName(events.firstPrompt ?? "");
	if (name) result.name = name;
	return result;
}
