import type { AgentSessions, TurnResult } from "@agent/session";
import { contentText } from "@agent/session-format/reading";
import type { CliContext } from "./cli-context.js";

export interface StreamTurnOptions {
	model?: string;
	/** The thinking level from this turn on (see SendOptions.thinkingLevel). */
	thinkingLevel?: string;
	signal?: AbortSignal;
	/** Print the reply as it streams in (false for --json). */
	print: boolean;
}

/**
 * Runs one turn and prints the reply text as it streams in; compactions are noted on stderr.
 * Resolves with the turn's records once they are durable.
 */
export async function streamTurn(
	ctx: CliContext,
	sessions: AgentSessions,
	sessionId: string,
	text: string,
	options: StreamTurnOptions,
): Promise<TurnResult> {
	const { stdout } = ctx.io;
	let printed = false;
	let endsWithNewline = true;
	// A model may stream a character split across two deltas (half an emoji in each): written alone,
	// each half would reach the terminal as U+FFFD. The half is held until the rest comes.
	let held = "";
	const unsubscribe = sessions.subscribe(
		(event) => {
			if (!options.print) return;
			if (event.type === "turn.delta" && event.kind === "text" && event.delta.length > 0) {
				const text = held + event.delta;
				const last = text.charCodeAt(text.length - 1);
				const whole = last >= 0xd800 && last <= 0xdbff ? text.slice(0, -1) : text;
				held = text.slice(whole.length);
				stdout.write(whole);
				printed = true;
				endsWithNewline = whole.endsWith("\n");
			} else if (
				event.type === "record.appended" &&
				event.record.recordType === "message" &&
				event.record.role === "assistant"
			) {
				if (held) stdout.write(held);
				held = "";
				// One reply is done: end its line so the next one (after a tool call) starts fresh.
				if (printed && !endsWithNewline) stdout.write("\n");
				endsWithNewline = true;
			} else if (event.type === "compaction.started") {
				ctx.out.note(ctx.out.paintErr("gray", `(compacting the session: ${event.trigger})`));
			}
		},
		{ sessionId },
	);
	try {
		const result = await sessions.send(sessionId, text, {
			...(options.model !== undefined ? { model: options.model } : {}),
			...(options.thinkingLevel !== undefined ? { thinkingLevel: options.thinkingLevel } : {}),
			...(options.signal ? { signal: options.signal } : {}),
		});
		if (options.print && !printed) {
			// The model did not stream: print the replies from the records.
			for (const record of result.records) {
				if (record.recordType === "message" && record.role === "assistant")
					stdout.write(`${contentText(record.content)}\n`);
			}
		}
		return result;
	} finally {
		unsubscribe();
		if (printed && !endsWithNewline) stdout.write("\n");
	}
}
