import type { CutPoint } from "./cut-point.js";
import { BOUNDARY, CONTEXT, type PathFacts, STARTS_TURN, TOOL_RESULT } from "./path-facts.js";

/**
 * {@link findCutPoint}'s rules (spec §7.5.3 steps 1 and 2, S7.13) on the facts a scan kept
 * instead of the records: the same walk back to keepRecentTokens, the same valid cut points
 * (never a tool result, never while a call before it waits for a result at or after it), the
 * same split-turn search. Undefined when [start, end) has no valid cut point.
 */
export function cutPointOfFacts(
	facts: PathFacts,
	keepRecentTokens: number,
	start: number,
	end: number,
): CutPoint | undefined {
	if (end <= start) return undefined;
	const valid = validPoints(facts, start, end);
	if (!valid.includes(1)) return undefined;

	let boundary = start;
	let accumulated = 0;
	for (let i = end - 1; i >= start; i--) {
		accumulated += facts.token(i);
		if (accumulated >= keepRecentTokens) {
			boundary = i;
			break;
		}
	}
	let index = -1;
	for (let i = boundary; i < end; i++) {
		if (valid[i - start] === 1) {
			index = i;
			break;
		}
	}
	if (index < 0) {
		for (let i = boundary - 1; i >= start; i--) {
			if (valid[i - start] === 1) {
				index = i;
				break;
			}
		}
	}

	// A compaction record in the range is not in the conversation: look at what follows it.
	let first = index;
	while (first < end && (facts.flag(first) & CONTEXT) === 0) first++;
	let turnStartIndex = -1;
	if (first < end && (facts.flag(first) & STARTS_TURN) === 0) {
		for (let i = index - 1; i >= start; i--) {
			if ((facts.flag(i) & STARTS_TURN) !== 0) {
				turnStartIndex = i;
				break;
			}
		}
	}
	let keptTokens = 0;
	for (let i = index; i < end; i++) keptTokens += facts.token(i);
	return { index, seq: facts.seq(index), isSplitTurn: turnStartIndex >= 0, turnStartIndex, keptTokens };
}

/** 1 where [start, end) may be cut, 0 elsewhere (one byte per record). Loops over the columns: it runs over every record of the region. */
function validPoints(facts: PathFacts, start: number, end: number): Uint8Array {
	const size = end - start;
	const open = new Int32Array(size + 1);
	for (let i = start; i < end; ) {
		const { flags, calls, at, count } = facts.run(i, end);
		for (let k = at, last = at + count, offset = i - start - at; k < last; k++) {
			if (((flags[k] as number) & TOOL_RESULT) === 0) continue;
			// Every index after the call, up to and including the result, would cut the pair apart;
			// a result whose call is not in the range pins everything up to it.
			const call = calls[k] as number;
			(open[call < start ? 0 : call + 1 - start] as number)++;
			(open[k + offset + 1] as number)--;
		}
		i += count;
	}
	const valid = new Uint8Array(size);
	let pending = 0;
	for (let i = start; i < end; ) {
		const { flags, at, count } = facts.run(i, end);
		for (let k = at, last = at + count, offset = i - start - at; k < last; k++) {
			pending += open[k + offset] as number;
			valid[k + offset] = pending === 0 && ((flags[k] as number) & BOUNDARY) !== 0 ? 1 : 0;
		}
		i += count;
	}
	return valid;
}
