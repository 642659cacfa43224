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
} from "@agent/session-format";
import { type AssistantMessage, isContextOverflow, stream } from "@mariozechner/pi-ai";
import type { SessionEvents } from "./events.js";
import type { ResolvedModel } from "./models.js";
import { assistantRecordInput, toPiMessages } from "./pi-messages.js";
import type { ToolExecutor } from "./tools.js";

/** What a turn needs from the runtime around it. */
export interface TurnEnvironment {
	store: SessionStore;
	events: SessionEvents;
	maxToolSteps: number;
	toolExecutor?: ToolExecutor;
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
			env.events.emit({ type: "record.appended", sessionId: input.sessionId, record });
		}
		env.events.emit({ type: "session.updated", sessionId: input.sessionId, metadata: result.metadata });
		return result.records;
	};

	await append([{ recordType: "message", role: "user", content: input.content }]);

	let overflowRetried = false;
	for (let step = 0; step < env.maxToolSteps; step++) {
		throwIfAborted(input.signal);
		// One resume per model call: it decides the threshold and, unless a compaction changed the
		// session, is the context the model gets.
		let opened = await env.store.open(input.sessionId, { ephemeral: input.ephemeral });
		const threshold = await env.compactIfNeeded(lease, input.model, "threshold", input.signal, opened);
		if (threshold) {
			appended.push(threshold);
			opened = await env.store.open(input.sessionId, { ephemeral: input.ephemeral });
		}
		const reply = await callModel(env, input, opened);
		if (reply.stopReason === "error" && isContextOverflow(reply, input.model.model.contextWindow) && !overflowRetried) {
			overflowRetried = true;
			const compacted = await env.compactIfNeeded(lease, input.model, "overflow", input.signal);
			if (compacted) {
				appended.push(compacted);
				step--;
				continue;
			}
		}
		await append([assistantRecordInput(reply)]);
		if (reply.stopReason === "aborted") throw new AgentSessionError("ABORTED", "@agent/session: the turn was aborted");
		if (reply.stopReason === "error") {
			throw new AgentSessionError(
				"MODEL_FAILED",
				`@agent/session: the model failed: ${reply.errorMessage ?? "unknown error"}; the reply is stored with its error, send again to retry`,
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

async function callModel(env: TurnEnvironment, input: TurnInput, opened: OpenedSession): Promise<AssistantMessage> {
	const { model, apiKey } = input.model;
	const context = {
		messages: toPiMessages(opened.context.messages, model),
		...(opened.context.systemPrompt ? { systemPrompt: opened.context.systemPrompt } : {}),
		...(env.toolExecutor ? { tools: env.toolExecutor.tools } : {}),
	};
	const events = stream(model, context, {
		sessionId: input.sessionId,
		...(apiKey ? { apiKey } : {}),
		...(input.signal ? { signal: input.signal } : {}),
	});
	for await (const event of events) {
		if (event.type === "text_delta" || event.type === "thinking_delta" || event.type === "toolcall_delta") {
			const kind = event.type === "text_delta" ? "text" : event.type === "thinking_delta" ? "thinking" : "toolCall";
			env.events.emit({
				type: "turn.delta",
				sessionId: input.sessionId,
				turnId: input.turnId,
				kind,
				delta: event.delta,
			});
		}
	}
	return events.result();
}

function throwIfAborted(signal: AbortSignal | undefined): void {
	if (signal?.aborted)
		throw new AgentSessionError("ABORTED", "@agent/session: the turn was aborted", { cause: signal.reason });
}
