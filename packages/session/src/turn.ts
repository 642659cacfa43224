import { oversizedBlockTokens } from "@agent/compaction";
import { assistantRecordInput, explainMissingProvider, toPiMessages } from "@agent/session-format/pi";
import {
	AgentSessionError,
	type CompactionTrigger,
	type ContentBlock,
	type EphemeralMessage,
	type OpenedSession,
	type RecordInput,
	type SessionLease,
	type SessionRecord,
	type SessionStore,
	toolCallsOf,
	type Usage,
} from "@agent/session-format/reading";
import type { AssistantMessage, ThinkingLevel } from "@mariozechner/pi-ai";
import { checkParentSeq } from "./continue-from.js";
import { describeMs } from "./deadlines.js";
import { type EventError, type SessionEvents, toEventError } from "./events.js";
import { callWithProgress } from "./model-call.js";
import type { ResolvedModel } from "./model-names.js";
import { loadPiAi } from "./pi-ai.js";
import { prunedContext } from "./pruned-context.js";
import { THINKING_LEVELS } from "./thinking-levels.js";
import type { ToolExecutor } from "./tools.js";

/** What a turn needs from the runtime around it. */
export interface TurnEnvironment {
	store: SessionStore;
	events: SessionEvents;
	maxToolSteps: number;
	toolExecutor?: ToolExecutor;
	/** Told of every record the turn appends (compactions included), as it is appended. */
	onAppended?: (record: SessionRecord) => void;
	/** compaction.prune_tool_outputs: old tool outputs are pruned from what the model is sent. */
	pruneToolOutputs?: { protectTokens: number; minimumTokens: number };
	/** compaction.reserve_tokens: with the model's window, how big one block may be before it is cut (oversizedBlockTokens). */
	reserveTokens: number;
	/** How long a model call may go without progress before it is stopped (model_call_timeout_seconds). */
	modelCallTimeoutMs: number;
	/**
	 * Compacts the session under the held lease when the trigger says so (for "threshold", judged
	 * on `opened`, the session as just resumed); returns the compaction record if it did.
	 */
	compactIfNeeded(
		lease: SessionLease,
		model: ResolvedModel,
		trigger: CompactionTrigger,
		signal?: AbortSignal,
		opened?: OpenedSession,
	): Promise<SessionRecord | undefined>;
}

export interface TurnInput {
	sessionId: string;
	turnId: string;
	content: ContentBlock[];
	model: ResolvedModel;
	ephemeral: readonly EphemeralMessage[];
	signal?: AbortSignal;
	/** A thinking level to set for this turn and the ones after it (a thinking_level_change record). */
	thinkingLevel?: string;
	/** The record the turn continues from (the branch a user is looking at); default: the active leaf. */
	parentSeq?: number;
	/**
	 * False while a deferred session is not written yet: a failed or aborted reply is then not
	 * appended (appending it would write the session out), so a failed first turn leaves nothing.
	 */
	keepFailedReply: () => boolean;
}

/**
 * One turn, under the session's lease: the user message, then model calls (and tool calls)
 * until the model stops. Returns every record the turn appended, in order.
 */
export async function runTurn(env: TurnEnvironment, lease: SessionLease, input: TurnInput): Promise<SessionRecord[]> {
	const appended: SessionRecord[] = [];
	const append = async (records: RecordInput[]) => {
		const result = await lease.append(records);
		for (const record of result.records) {
			appended.push(record);
			env.onAppended?.(record);
			env.events.emit({ type: "record.appended", sessionId: input.sessionId, record });
		}
		env.events.emit({ type: "session.updated", sessionId: input.sessionId, metadata: result.metadata });
		return result.records;
	};

	const first: RecordInput[] = [];
	// Under the lease: the leaf moves to the branch asked for, with the turn's first record.
	const moveTo =
		input.parentSeq === undefined ? undefined : await leafMove(env.store, input.sessionId, input.parentSeq);
	if (input.thinkingLevel !== undefined) {
		const current = await env.store.open(
			input.sessionId,
			input.parentSeq !== undefined ? { leafSeq: input.parentSeq } : {},
		);
		if (current.context.thinkingLevel !== input.thinkingLevel) {
			first.push({ recordType: "thinking_level_change", thinkingLevel: input.thinkingLevel });
		}
	}
	first.push({ recordType: "message", role: "user", content: input.content });
	if (moveTo !== undefined) first[0] = { ...(first[0] as RecordInput), parentSeq: moveTo };
	await append(first);

	const { isContextOverflow } = await loadPiAi();
	let overflowRetried = false;
	// Model calls so far, and why the next one repeats the last (for model.started).
	const modelCalls = { made: 0, retryOf: undefined as string | undefined };
	for (let step = 0; step < env.maxToolSteps; step++) {
		throwIfAborted(input.signal);
		// One resume per model call: it decides the threshold and, unless a compaction changed the
		// session, is the context the model gets.
		let opened = await env.store.open(input.sessionId, { ephemeral: input.ephemeral });
		const threshold = await env.compactIfNeeded(lease, input.model, "threshold", input.signal, opened);
		if (threshold) {
			appended.push(threshold);
			env.onAppended?.(threshold);
			opened = await env.store.open(input.sessionId, { ephemeral: input.ephemeral });
		}
		const { reply, stalled } = await callModel(env, input, opened, ++modelCalls.made, modelCalls.retryOf);
		modelCalls.retryOf = undefined;
		if (reply.stopReason === "error" && isContextOverflow(reply, input.model.model.contextWindow) && !overflowRetried) {
			overflowRetried = true;
			const compacted = await env.compactIfNeeded(lease, input.model, "overflow", input.signal);
			if (compacted) {
				appended.push(compacted);
				env.onAppended?.(compacted);
				modelCalls.retryOf = "context_overflow";
				step--;
				continue;
			}
		}
		const failed = reply.stopReason === "aborted" || reply.stopReason === "error";
		const kept = !failed || input.keepFailedReply();
		if (kept) await append([assistantRecordInput(reply)]);
		if (stalled) throw stalledError(env, input);
		if (reply.stopReason === "aborted") {
			// The signal's reason rides along: a server that stops records such a turn as interrupted.
			throw new AgentSessionError("ABORTED", "@agent/session: the turn was aborted", { cause: input.signal?.reason });
		}
		if (reply.stopReason === "error") {
			const after = kept
				? "the reply is stored with its error, send again to retry"
				: "nothing was written (a deferred session is written with its first reply), send again to start over";
			throw new AgentSessionError(
				"MODEL_FAILED",
				`@agent/session: the model failed: ${reply.errorMessage ?? "unknown error"}; ${after}`,
			);
		}
		const calls = toolCallsOf(reply.content as ContentBlock[]);
		if (calls.length === 0 || !env.toolExecutor) return appended;
		for (const call of calls) {
			throwIfAborted(input.signal);
			const outcome = await env.toolExecutor
				.execute(call, { sessionId: input.sessionId, ...(input.signal ? { signal: input.signal } : {}) })
				.catch((error: unknown) => ({
					content: `Tool ${call.name} failed: ${(error as Error).message}`,
					isError: true,
				}));
			const content =
				typeof outcome.content === "string" ? [{ type: "text" as const, text: outcome.content }] : outcome.content;
			const result: RecordInput = {
				recordType: "message",
				role: "toolResult",
				toolCallId: call.id,
				toolName: call.name,
				isError: outcome.isError ?? false,
				content,
			};
			if ("details" in outcome && outcome.details !== undefined) result.details = outcome.details;
			await append([result]);
		}
	}
	throw new AgentSessionError(
		"INVALID_ARGUMENT",
		`@agent/session: the turn took more than ${env.maxToolSteps} tool steps and was stopped; raise max_tool_steps in config.yaml if that is expected`,
	);
}

/**
 * One model call, told as model.started and model.completed (with its time, stop reason and
 * usage). `stalled`: it made no progress for model_call_timeout_seconds and was stopped.
 */
async function callModel(
	env: TurnEnvironment,
	input: TurnInput,
	opened: OpenedSession,
	call: number,
	retryOf: string | undefined,
): Promise<{ reply: AssistantMessage; stalled: boolean }> {
	const { sessionId, turnId } = input;
	const model = input.model.name;
	env.events.emit({ type: "model.started", sessionId, turnId, model, call, ...(retryOf ? { retryOf } : {}) });
	const startedAt = Date.now();
	const ended = (stopReason: string, extra: { usage?: Usage; error?: EventError }) =>
		env.events.emit({
			type: "model.completed",
			sessionId,
			turnId,
			model,
			provider: input.model.model.provider,
			call,
			durationMs: Date.now() - startedAt,
			stopReason,
			...extra,
		});
	let called: { reply: AssistantMessage; stalled: boolean };
	try {
		called = await streamReply(env, input, opened);
	} catch (error) {
		ended("error", { error: toEventError(error) });
		throw error;
	}
	const { reply, stalled } = called;
	const failed = reply.stopReason === "error" || reply.stopReason === "aborted";
	ended(reply.stopReason, {
		...(reply.usage ? { usage: reply.usage } : {}),
		...(stalled
			? { error: toEventError(stalledError(env, input)) }
			: failed
				? {
						error: {
							code: reply.stopReason === "error" ? "MODEL_FAILED" : "ABORTED",
							message: reply.errorMessage ?? "",
						},
					}
				: {}),
	});
	return called;
}

function stalledError(env: TurnEnvironment, input: TurnInput): AgentSessionError {
	return new AgentSessionError(
		"TIMED_OUT",
		`@agent/session: the model ${input.model.name} made no progress for ${describeMs(env.modelCallTimeoutMs)} (model_call_timeout_seconds) and the turn was stopped; send again to retry`,
	);
}

async function streamReply(
	env: TurnEnvironment,
	input: TurnInput,
	opened: OpenedSession,
): Promise<{ reply: AssistantMessage; stalled: boolean }> {
	const { model, apiKey } = input.model;
	const maxBlockTokens = oversizedBlockTokens(model.contextWindow, env.reserveTokens);
	const modelContext = prunedContext(opened, env.pruneToolOutputs, maxBlockTokens);
	const context = {
		messages: toPiMessages(modelContext.messages, model),
		...(modelContext.systemPrompt ? { systemPrompt: modelContext.systemPrompt } : {}),
		...(env.toolExecutor ? { tools: env.toolExecutor.tools } : {}),
	};
	// The path's thinking level becomes pi-ai's reasoning option, which maps it onto each provider's own.
	const level = modelContext.thinkingLevel;
	const reasoning = level !== undefined && level !== "off" && THINKING_LEVELS.includes(level);
	const { stream, streamSimple } = await loadPiAi();
	const start = (signal: AbortSignal) => {
		const options = { sessionId: input.sessionId, signal, ...(apiKey ? { apiKey } : {}) };
		try {
			return reasoning
				? streamSimple(model, context, { ...options, reasoning: level as ThinkingLevel })
				: stream(model, context, options);
		} catch (error) {
			const message = (error as Error).message;
			const twoCopies = explainMissingProvider(message, "@agent/session");
			throw new AgentSessionError(
				"MODEL_FAILED",
				`@agent/session: the model ${input.model.name} cannot be called: ${twoCopies ?? message}`,
				{ cause: error },
			);
		}
	};
	return callWithProgress(start, {
		model,
		noProgressMs: env.modelCallTimeoutMs,
		...(input.signal ? { signal: input.signal } : {}),
		onEvent: (event) => {
			if (event.type !== "text_delta" && event.type !== "thinking_delta" && event.type !== "toolcall_delta") return;
			const kind = event.type === "text_delta" ? "text" : event.type === "thinking_delta" ? "thinking" : "toolCall";
			env.events.emit({
				type: "turn.delta",
				sessionId: input.sessionId,
				turnId: input.turnId,
				kind,
				delta: event.delta,
			});
		},
	});
}

/** The parent the turn's first record must name to continue from `parentSeq`; undefined when that is the active leaf already. */
async function leafMove(store: SessionStore, sessionId: string, parentSeq: number): Promise<number | undefined> {
	await checkParentSeq(store, sessionId, parentSeq);
	const metadata = await store.metadata(sessionId);
	return parentSeq === (metadata.leafSeq ?? metadata.lastSeq) ? undefined : parentSeq;
}

function throwIfAborted(signal: AbortSignal | undefined): void {
	if (signal?.aborted)
		throw new AgentSessionError("ABORTED", "@agent/session: the turn was aborted", { cause: signal.reason });
}
