import { explainMissingProvider } from "@agent/session-format/pi";
import type { Api, AssistantMessage, Context, Model, ProviderStreamOptions } from "@mariozechner/pi-ai";
import { compactionAborted, compactionFailed, throwIfAborted } from "./errors.js";

/** The injected LLM call: pi-ai's `complete` or anything of its shape. */
export type CompleteFn = (
	model: Model<Api>,
	context: Context,
	options?: ProviderStreamOptions,
) => Promise<AssistantMessage>;

export interface RetryOptions {
	/** Retries of a failed provider call (not counting the first try). Default 3. */
	maxRetries?: number;
	/** The first backoff delay; it doubles with every retry. Default 1000 ms. */
	baseDelayMs?: number;
	/** The longest backoff delay. Default 30 000 ms. */
	maxDelayMs?: number;
	/** How to wait; injectable for tests. Must reject when the signal aborts. */
	sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** How the summarizer is reached. */
export interface SummarizerCall {
	model: Model<Api>;
	complete?: CompleteFn;
	signal?: AbortSignal;
	/** The most tokens a summary may have. */
	maxTokens: number;
	retry?: RetryOptions;
	/** Passed through to `complete` (e.g. apiKey, headers); signal and maxTokens are set here. */
	completeOptions?: ProviderStreamOptions;
}

/** The prompt did not fit the summarizer's window: the caller should send less. */
export class SummarizerOverflow extends Error {
	constructor(message: string) {
		super(message);
		this.name = "SummarizerOverflow";
	}
}

// Errors no retry can fix: bad credentials, bad requests, unknown models or providers.
const PERMANENT_ERROR =
	/\b(401|403|400|404)\b|api key|unauthori[sz]ed|forbidden|permission|invalid[_ ]request|not found|no api provider|unsupported/i;

/**
 * Sends one summarization request and returns the text of the answer. Provider errors are
 * retried with exponential backoff unless they cannot be transient; an overflow of the
 * summarizer's window throws {@link SummarizerOverflow}; the signal aborts at once.
 */
export async function requestSummary(call: SummarizerCall, systemPrompt: string, userPrompt: string): Promise<string> {
	// pi-ai is loaded by the first request, not with this package: its entry point loads the whole
	// LLM stack, which readers of this package's pure parts (pruning, token estimates) never need.
	const { complete: piComplete, isContextOverflow } = await import("@mariozechner/pi-ai");
	const complete = call.complete ?? piComplete;
	const maxRetries = call.retry?.maxRetries ?? 3;
	const context: Context = {
		systemPrompt,
		messages: [{ role: "user", content: [{ type: "text", text: userPrompt }], timestamp: Date.now() }],
	};
	for (let attempt = 0; ; attempt++) {
		throwIfAborted(call.signal);
		let response: AssistantMessage;
		try {
			const options: ProviderStreamOptions = { ...call.completeOptions, maxTokens: call.maxTokens };
			if (call.signal) options.signal = call.signal;
			response = await complete(call.model, context, options);
		} catch (error) {
			if (call.signal?.aborted) throw compactionAborted(error);
			const message = error instanceof Error ? error.message : String(error);
			if (attempt < maxRetries && !PERMANENT_ERROR.test(message)) {
				await backoff(call, attempt);
				continue;
			}
			throw providerFailure(call, message, attempt, error);
		}
		if (response.stopReason === "aborted" || call.signal?.aborted) throw compactionAborted(response.errorMessage);
		if (response.stopReason === "error") {
			const message = response.errorMessage ?? "unknown provider error";
			if (isContextOverflow(response)) throw new SummarizerOverflow(message);
			if (attempt < maxRetries && !PERMANENT_ERROR.test(message)) {
				await backoff(call, attempt);
				continue;
			}
			throw providerFailure(call, message, attempt);
		}
		return answerText(response);
	}
}

/** The text blocks of an answer, joined; thinking and tool calls are not part of a summary. */
function answerText(response: AssistantMessage): string {
	return response.content
		.filter((block) => block.type === "text")
		.map((block) => block.text)
		.join("")
		.trim();
}

/** The delay before retry number `attempt + 1`: base × 2^attempt, capped. */
function backoffDelay(attempt: number, retry: RetryOptions = {}): number {
	const base = retry.baseDelayMs ?? 1000;
	const max = retry.maxDelayMs ?? 30_000;
	return Math.min(max, base * 2 ** attempt);
}

async function backoff(call: SummarizerCall, attempt: number): Promise<void> {
	const delay = backoffDelay(attempt, call.retry);
	const sleep = call.retry?.sleep ?? abortableSleep;
	try {
		await sleep(delay, call.signal);
	} catch (error) {
		throw compactionAborted(error);
	}
	throwIfAborted(call.signal);
}

function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
	return new Promise((resolve, reject) => {
		if (signal?.aborted) {
			reject(signal.reason);
			return;
		}
		const onAbort = () => {
			clearTimeout(timer);
			reject(signal?.reason);
		};
		const timer = setTimeout(() => {
			signal?.removeEventListener("abort", onAbort);
			resolve();
		}, ms);
		signal?.addEventListener("abort", onAbort, { once: true });
	});
}

function providerFailure(call: SummarizerCall, message: string, attempt: number, cause?: unknown) {
	const model = `${call.model.provider}/${call.model.id}`;
	// Not the model's credentials: the model is unknown to the copy of pi-ai this package loaded.
	const twoCopies = explainMissingProvider(
		message,
		"@agent/compaction",
		"pass your copy's `complete` as the `complete` option",
	);
	if (twoCopies)
		return compactionFailed(`the summarizer ${model} cannot be called: ${twoCopies}. Nothing was written`, cause);
	const tries = attempt + 1;
	return compactionFailed(
		`the summarizer ${model} failed after ${tries} ${tries === 1 ? "try" : "tries"}: ${message}. Nothing was written; check the model's credentials and availability, or configure another compaction model, then compact again`,
		cause,
	);
}
