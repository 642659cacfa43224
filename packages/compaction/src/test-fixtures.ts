import {
	type CompactionRecord,
	type ContentBlock,
	type ContextMessage,
	contextMessageOf,
	type MessageRecord,
	type StoredRecord,
	type ToolCallBlock,
	type Usage,
} from "@agent/session-format";
import {
	type AssistantMessage,
	type Context,
	type FauxProviderRegistration,
	fauxAssistantMessage,
	registerFauxProvider,
} from "@mariozechner/pi-ai";
import { afterEach } from "vitest";

/** A summary with every required section (S7.14). */
export function validSummary(tag = "A"): string {
	return [
		"## Goal",
		`- goal ${tag}`,
		"",
		"## Constraints & Preferences",
		"- none",
		"",
		"## Progress",
		"### Done",
		`- [x] done ${tag}`,
		"",
		"### In Progress",
		"- [ ] nothing",
		"",
		"### Blocked",
		"- none",
		"",
		"## Key Decisions",
		`- **decision ${tag}**: because`,
		"",
		"## Next Steps",
		`1. next ${tag}`,
		"",
		"## Critical Context",
		`- context ${tag}`,
	].join("\n");
}

export function usage(total: number): Usage {
	return { input: total, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: total };
}

/** Builds a linear path of records with consecutive seqs. */
export class PathBuilder {
	readonly records: StoredRecord[] = [];
	private nextCall = 1;

	constructor(private seq = 0) {}

	private stamp(): { seq: number; schemaVersion: number; timestamp: string } {
		this.seq++;
		return {
			seq: this.seq,
			schemaVersion: 1,
			timestamp: new Date(Date.UTC(2025, 1, 11, 10, 0, this.seq)).toISOString(),
		};
	}

	user(text: string): MessageRecord {
		const record: MessageRecord = {
			recordType: "message",
			...this.stamp(),
			role: "user",
			content: [{ type: "text", text }],
		};
		this.records.push(record);
		return record;
	}

	assistant(content: string | ContentBlock[], extra: Partial<MessageRecord> = {}): MessageRecord {
		const blocks: ContentBlock[] = typeof content === "string" ? [{ type: "text", text: content }] : content;
		const record: MessageRecord = {
			recordType: "message",
			...this.stamp(),
			role: "assistant",
			content: blocks,
			...extra,
		};
		this.records.push(record);
		return record;
	}

	call(name: string, args: Record<string, unknown>): ToolCallBlock {
		return { type: "toolCall", id: `call_${this.nextCall++}`, name, arguments: args };
	}

	result(call: ToolCallBlock, text: string, isError = false): MessageRecord {
		const record: MessageRecord = {
			recordType: "message",
			...this.stamp(),
			role: "toolResult",
			content: [{ type: "text", text }],
			toolCallId: call.id,
			toolName: call.name,
			isError,
		};
		this.records.push(record);
		return record;
	}

	/** An assistant message with one tool call, and its result. */
	toolTurn(name: string, args: Record<string, unknown>, output: string, isError = false): ToolCallBlock {
		const call = this.call(name, args);
		this.assistant([call]);
		this.result(call, output, isError);
		return call;
	}

	compaction(fields: Omit<CompactionRecord, "recordType" | "seq" | "schemaVersion" | "timestamp">): CompactionRecord {
		const record: CompactionRecord = { recordType: "compaction", ...this.stamp(), ...fields };
		this.records.push(record);
		return record;
	}

	/** Appends a record as a store would: with the next seq. */
	append<T extends { recordType: string }>(input: T): StoredRecord {
		const record = { ...input, ...this.stamp() } as unknown as StoredRecord;
		this.records.push(record);
		return record;
	}

	/** The message records so far. */
	messages(): MessageRecord[] {
		return this.records.filter((record): record is MessageRecord => record.recordType === "message");
	}

	get lastSeq(): number {
		return this.seq;
	}
}

/** Text of `tokens` estimated tokens (4 characters each). */
export function words(tokens: number, word = "abcd"): string {
	return word.repeat(tokens);
}

/** A faux provider whose answers are computed from the prompt; it records every prompt. */
export function fauxSummarizer(
	answer: (userPrompt: string, callIndex: number) => string | AssistantMessage = () => validSummary(),
	model: { contextWindow?: number; maxTokens?: number } = {},
): { faux: FauxProviderRegistration; prompts: Array<{ system: string; user: string }> } {
	const faux = registerFauxProvider({
		models: [{ id: "summarizer", contextWindow: model.contextWindow ?? 128_000, maxTokens: model.maxTokens ?? 16_384 }],
	});
	const prompts: Array<{ system: string; user: string }> = [];
	const step = (context: Context) => {
		const first = context.messages[0];
		const user =
			first && first.role === "user"
				? typeof first.content === "string"
					? first.content
					: first.content.map((block) => (block.type === "text" ? block.text : "")).join("")
				: "";
		prompts.push({ system: context.systemPrompt ?? "", user });
		const reply = answer(user, prompts.length - 1);
		return typeof reply === "string" ? fauxAssistantMessage(reply) : reply;
	};
	faux.setResponses(Array.from({ length: 200 }, () => step));
	return { faux, prompts };
}

/**
 * For a test file: a `summarizer(...)` like fauxSummarizer that also returns the faux model and
 * unregisters the provider after each test. Call at the top level (it registers an afterEach hook).
 */
export function useFauxSummarizers() {
	const cleanups: Array<() => void> = [];
	afterEach(() => {
		for (const cleanup of cleanups.splice(0)) cleanup();
	});
	return (...args: Parameters<typeof fauxSummarizer>) => {
		const made = fauxSummarizer(...args);
		cleanups.push(() => made.faux.unregister());
		return { ...made, model: made.faux.getModel() };
	};
}

/** The context messages a plan's part summarizes, read from the records it was planned on. */
export function partMessages(
	records: readonly StoredRecord[],
	part: { fromSeq: number; toSeq: number } | undefined,
): ContextMessage[] {
	if (!part) return [];
	const out: ContextMessage[] = [];
	for (const record of records) {
		if (record.seq < part.fromSeq || record.seq >= part.toSeq) continue;
		const message = contextMessageOf(record);
		if (message) out.push(message);
	}
	return out;
}
