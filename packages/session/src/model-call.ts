import { toPiMessage } from "@agent/session-format/pi";
import type { Api, AssistantMessage, AssistantMessageEvent, Model } from "@mariozechner/pi-ai";
import { startTimer } from "./deadlines.js";

/** What pi-ai's `stream` returns: the call's events, then its final message. */
export interface ModelEventStream extends AsyncIterable<AssistantMessageEvent> {
	result(): Promise<AssistantMessage>;
}

/** How long a provider gets, after its call was aborted, to end the call itself. */
const ABORT_GRACE_MS = 5_000;
const ABANDONED = Symbol("abandoned");

/**
 * One model call that must keep making progress: `start` gets the call's signal (the caller's,
 * joined with a timer that fires when no event came for `noProgressMs`, re-armed by every event).
 * A provider that never answers thus ends there, its SDK's own retries with it. `stalled` says
 * that timer ended the call. Should a provider not end an aborted call within a grace period, the
 * call is given up with an aborted reply of its own.
 */
export async function callWithProgress(
	start: (signal: AbortSignal) => ModelEventStream,
	options: {
		model: Model<Api>;
		noProgressMs: number;
		signal?: AbortSignal;
		onEvent?: (event: AssistantMessageEvent) => void;
	},
): Promise<{ reply: AssistantMessage; stalled: boolean }> {
	const stall = new AbortController();
	const signal = options.signal ? AbortSignal.any([options.signal, stall.signal]) : stall.signal;
	let stopTimer = () => {};
	const arm = () => {
		stopTimer();
		stopTimer = startTimer(options.noProgressMs, () => stall.abort(new Error("no progress")));
	};
	let stopGrace = () => {};
	const abandoned = new Promise<typeof ABANDONED>((resolve) => {
		const onAbort = () => {
			stopGrace = startTimer(ABORT_GRACE_MS, () => resolve(ABANDONED));
		};
		if (signal.aborted) onAbort();
		else signal.addEventListener("abort", onAbort, { once: true });
	});
	arm();
	try {
		const events = start(signal);
		const iterator = events[Symbol.asyncIterator]();
		for (;;) {
			const next = await Promise.race([iterator.next(), abandoned]);
			if (next === ABANDONED || next.done) break;
			arm();
			options.onEvent?.(next.value);
		}
		const result = await Promise.race([events.result(), abandoned]);
		const reply = result === ABANDONED ? abandonedReply(options.model) : result;
		const stalled = stall.signal.aborted && !options.signal?.aborted;
		return { reply, stalled: stalled && (reply.stopReason === "aborted" || reply.stopReason === "error") };
	} finally {
		stopTimer();
		stopGrace();
	}
}

function abandonedReply(model: Model<Api>): AssistantMessage {
	const errorMessage = `the provider did not end the call within ${ABORT_GRACE_MS / 1000} s of its abort`;
	const defaults = { api: model.api, provider: model.provider, id: model.id };
	const reply = toPiMessage(
		{ role: "assistant", origin: "message", content: [], stopReason: "aborted", errorMessage },
		defaults,
	);
	return reply as AssistantMessage;
}
