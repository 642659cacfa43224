import {
	isAgentSessionError,
	type RecordInput,
	type SessionRecord,
	type TurnOutcome,
	type Usage,
} from "@agent/session-format/reading";
import { toEventError } from "./events.js";
import { isInterruption } from "./interruption.js";

/**
 * The `turn` record that closes a turn: outcome, start, duration (the session's uptime is the sum
 * of these, so it lives in the log and survives a lost metadata.json), model, summed usage, and
 * the seqs the turn wrote.
 */
export function turnRecordInput(turn: {
	turnId: string;
	startedAt: Date;
	endedAt: Date;
	model: string;
	records: readonly SessionRecord[];
	error?: unknown;
	/** The turn was stopped by its process stopping (isInterruption of its signal's reason). */
	interrupted?: boolean;
}): RecordInput {
	const record: RecordInput = {
		recordType: "turn",
		turnId: turn.turnId,
		outcome: outcomeOf(turn.error, turn.interrupted === true),
		startedAt: turn.startedAt.toISOString(),
		durationMs: Math.max(0, turn.endedAt.getTime() - turn.startedAt.getTime()),
		model: turn.model,
	};
	const usage = summedUsage(turn.records);
	if (usage) record.usage = usage;
	if (turn.error !== undefined) record.error = toEventError(turn.error);
	const first = turn.records[0];
	const last = turn.records[turn.records.length - 1];
	if (first && last) {
		record.firstSeq = first.seq;
		record.lastSeq = last.seq;
	}
	return record;
}

function outcomeOf(error: unknown, interrupted: boolean): TurnOutcome {
	if (error === undefined) return "completed";
	if (isAgentSessionError(error, "TIMED_OUT")) return "timed_out";
	if (!isAgentSessionError(error, "ABORTED")) return "failed";
	return interrupted || isInterruption(error) ? "interrupted" : "cancelled";
}

function summedUsage(records: readonly SessionRecord[]): Usage | undefined {
	let sum: Usage | undefined;
	for (const record of records) {
		if (record.recordType !== "message" || record.role !== "assistant" || !record.usage) continue;
		const usage = record.usage;
		sum ??= {
			input: 0,
			output: 0,
			cacheRead: 0,
			cacheWrite: 0,
			totalTokens: 0,
			cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
		};
		sum.input += usage.input;
		sum.output += usage.output;
		sum.cacheRead += usage.cacheRead;
		sum.cacheWrite += usage.cacheWrite;
		sum.totalTokens += usage.totalTokens;
		if (usage.cost && sum.cost) {
			sum.cost.input += usage.cost.input;
			sum.cost.output += usage.cost.output;
			sum.cost.cacheRead += usage.cost.cacheRead;
			sum.cost.cacheWrite += usage.cost.cacheWrite;
			sum.cost.total += usage.cost.total;
		}
	}
	return sum;
}
