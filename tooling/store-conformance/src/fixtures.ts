import type { AgentErrorCode, RecordInput, SessionStore, StoredRecord, Usage } from "@agent/session-format";
import { expect } from "vitest";

/** What a backend hands the suite: a fresh, empty store, and how to throw it away. */
export interface StoreHandle {
	store: SessionStore;
	cleanup(): Promise<void>;
	/**
	 * Throws away everything the backend keeps besides the records themselves (on disk: every
	 * metadata.json and the cache directory), as a crash or an operator might; the log is the whole
	 * truth, so the store must answer every call as before. Returns the store to use afterwards (a
	 * new instance, so no in-memory cache survives either).
	 */
	dropCaches(): Promise<SessionStore>;
	/**
	 * Optional: makes the stored line of record `seq` unreadable, as a disk error or a hand edit
	 * might, keeping its length: its first byte becomes "#" (a line of session.jsonl, a row's text).
	 * The verify tests that need a damaged line run where a backend gives this.
	 */
	damage?(id: string, seq: number): Promise<void>;
}

export type MakeStore = () => Promise<StoreHandle>;

/** The store of the running test (each test gets a fresh one). */
export interface SuiteContext {
	readonly store: SessionStore;
}

type MessageInput = Extract<RecordInput, { recordType: "message" }>;

export function user(text: string, timestamp?: string): RecordInput {
	return {
		recordType: "message",
		role: "user",
		content: [{ type: "text", text }],
		...(timestamp ? { timestamp } : {}),
	};
}

export function assistant(
	text: string,
	options: { provider?: string; model?: string; usage?: Partial<Usage>; timestamp?: string; toolCallId?: string } = {},
): RecordInput {
	const content: Array<
		{ type: "text"; text: string } | { type: "toolCall"; id: string; name: string; arguments: Record<string, unknown> }
	> = [{ type: "text", text }];
	if (options.toolCallId)
		content.push({ type: "toolCall", id: options.toolCallId, name: "bash", arguments: { command: "ls" } });
	const record: MessageInput = {
		recordType: "message",
		role: "assistant",
		content,
		provider: options.provider ?? "faux",
		model: options.model ?? "faux-1",
	};
	if (options.usage) {
		record.usage = {
			input: options.usage.input ?? 0,
			output: options.usage.output ?? 0,
			cacheRead: options.usage.cacheRead ?? 0,
			cacheWrite: options.usage.cacheWrite ?? 0,
			totalTokens: options.usage.totalTokens ?? (options.usage.input ?? 0) + (options.usage.output ?? 0),
			...(options.usage.cost ? { cost: options.usage.cost } : {}),
		};
	}
	if (options.timestamp) record.timestamp = options.timestamp;
	return record;
}

export function toolResult(toolCallId: string, text: string): RecordInput {
	return {
		recordType: "message",
		role: "toolResult",
		toolCallId,
		toolName: "bash",
		isError: false,
		content: [{ type: "text", text }],
	};
}

export function compaction(firstKeptSeq: number, summary: string): RecordInput {
	return { recordType: "compaction", firstKeptSeq, summary, tokensBefore: 1000, readFiles: [], modifiedFiles: [] };
}

export function custom(data: unknown): RecordInput {
	return { recordType: "custom", customType: "conformance", data };
}

/** All records of a session, in log order. */
export async function readAllRecords(store: SessionStore, id: string): Promise<StoredRecord[]> {
	const out: StoredRecord[] = [];
	for await (const record of store.read(id)) out.push(record);
	return out;
}

export async function collect(iterable: AsyncIterable<StoredRecord>): Promise<StoredRecord[]> {
	const out: StoredRecord[] = [];
	for await (const record of iterable) out.push(record);
	return out;
}

/** The text of a message-like record or context message. */
export function textOf(entry: object): string {
	const content = (entry as { content?: unknown }).content as Array<{ type: string; text?: string }> | undefined;
	return (content ?? []).map((block) => (block.type === "text" ? block.text : `[${block.type}]`)).join("");
}

/** Asserts that `promise` rejects with an AgentSessionError of `code`; returns the error. */
export async function expectCode(promise: Promise<unknown>, code: AgentErrorCode): Promise<Error & { code: string }> {
	let caught: unknown;
	try {
		await promise;
	} catch (error) {
		caught = error;
	}
	expect(caught, `expected a rejection with code ${code}`).toBeInstanceOf(Error);
	expect((caught as { code?: string }).code).toBe(code);
	return caught as Error & { code: string };
}

/** A session with `texts.length` user messages appended one per batch; returns its id. */
export async function sessionWith(store: SessionStore, texts: readonly string[]): Promise<string> {
	const { id } = await store.create();
	for (const text of texts) await store.append(id, [user(text)]);
	return id;
}

export const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
export const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;
