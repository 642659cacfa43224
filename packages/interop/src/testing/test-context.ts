/**
 * Test helpers: our context and pi's, reduced to what the LLM sees (roles and content), so
 * the two can be compared message for message.
 */
import {
	branchSummaryText,
	buildContext,
	type ContextMessage,
	compactionSummaryText,
	parseRecordValue,
	type RecordInput,
	type SessionContext,
	type SessionRecord,
} from "@agent/session-format";
import { convertToLlm, type SessionContext as PiSessionContext } from "@mariozechner/pi-coding-agent";

export interface NormalMessage {
	role: string;
	/** Set for summaries: the wrapper text differs between pi and us by design, the summary must not. */
	summary?: { kind: "compaction" | "branch"; text: string };
	content?: unknown[];
	toolCallId?: string;
}

export interface NormalContext {
	messages: NormalMessage[];
	model: { provider: string; modelId: string } | null;
	thinkingLevel: string;
}

/**
 * Records as a reader gets them from a log: seq 1..n, checked and defaulted by the reader's rules
 * (not an append's, which cap some fields: an export must handle whatever an older log holds).
 */
export function storedRecords(inputs: readonly RecordInput[]): SessionRecord[] {
	return inputs.map((input, index) => {
		const parsed = parseRecordValue({
			...input,
			schemaVersion: 1,
			seq: index + 1,
			timestamp: input.timestamp ?? "2026-01-01T00:00:00.000Z",
		});
		if (!parsed.ok || parsed.record.recordType === "opaque") {
			throw new Error(`test record ${index + 1} is not a record: ${JSON.stringify(parsed)}`.slice(0, 500));
		}
		return parsed.record;
	});
}

export function ourContext(inputs: readonly RecordInput[]): SessionContext {
	return buildContext(storedRecords(inputs));
}

export function normaliseOurs(context: SessionContext): NormalContext {
	return {
		messages: context.messages.map(normaliseOurMessage),
		model: context.model ?? null,
		thinkingLevel: context.thinkingLevel ?? "off",
	};
}

export function normalisePi(context: PiSessionContext): NormalContext {
	const messages: NormalMessage[] = [];
	for (const message of context.messages) {
		const role = (message as { role: string }).role;
		if (role === "compactionSummary" || role === "branchSummary") {
			const summary = (message as unknown as { summary: string }).summary;
			messages.push({
				role: "user",
				summary: { kind: role === "compactionSummary" ? "compaction" : "branch", text: summary },
			});
			continue;
		}
		for (const llm of convertToLlm([message])) {
			const out: NormalMessage = { role: llm.role, content: normaliseContent(llm.content) };
			if (llm.role === "toolResult") out.toolCallId = llm.toolCallId;
			messages.push(out);
		}
	}
	return { messages, model: context.model, thinkingLevel: context.thinkingLevel };
}

function normaliseOurMessage(message: ContextMessage): NormalMessage {
	if (message.origin === "compaction_summary" || message.origin === "branch_summary") {
		const kind = message.origin === "compaction_summary" ? "compaction" : "branch";
		const wrap = kind === "compaction" ? compactionSummaryText : branchSummaryText;
		const [prefix = "", suffix = ""] = wrap("\u0000").split("\u0000");
		const block = message.content[0];
		const full = block?.type === "text" ? block.text : "";
		if (!full.startsWith(prefix) || !full.endsWith(suffix)) throw new Error(`summary text not wrapped: ${full}`);
		return { role: "user", summary: { kind, text: full.slice(prefix.length, full.length - suffix.length) } };
	}
	const out: NormalMessage = { role: message.role, content: normaliseContent(message.content) };
	if (message.role === "toolResult") out.toolCallId = message.toolCallId;
	return out;
}

function normaliseContent(content: unknown): unknown[] {
	if (typeof content === "string") return [{ type: "text", text: content }];
	return (content as unknown[]).map((block) => JSON.parse(JSON.stringify(block)) as unknown);
}

/** The first text of each message (a summary's text for summaries): a compact view for assertions. */
export function firstTexts(context: NormalContext): string[] {
	return context.messages.map((message) => {
		if (message.summary) return message.summary.text;
		const block = message.content?.[0] as { text?: string } | undefined;
		return block?.text ?? "";
	});
}

/** A context message as "role(origin): first line of its first block" (a tool call as "call <name>"): a compact view for assertions. */
export function briefMessage(message: ContextMessage): string {
	const first = message.content[0];
	const body =
		first?.type === "text" ? first.text : first?.type === "toolCall" ? `call ${first.name}` : (first?.type ?? "");
	const origin = message.origin === "message" ? "" : `(${message.origin})`;
	return `${message.role}${origin}: ${body.split("\n")[0]}`;
}
