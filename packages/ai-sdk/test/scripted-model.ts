import { simulateReadableStream } from "ai";
import { MockLanguageModelV3 } from "ai/test";

/** A stream part of the language model interface ai 6 speaks (LanguageModelV3). */
export type LanguageModelV3StreamPart =
	Awaited<ReturnType<MockLanguageModelV3["doStream"]>>["stream"] extends ReadableStream<infer Part> ? Part : never;

export interface ScriptOptions {
	chunkDelayInMs?: number;
	/** Holds the first step's stream before its part `at` until `until` settles (a test's barrier, not a delay). */
	pause?: { at: number; until: Promise<unknown> };
}

/** The AI SDK's own mock model, answering each call with the next scripted step (stream parts). */
export function scriptedModel(steps: LanguageModelV3StreamPart[][], options: ScriptOptions = {}) {
	let call = 0;
	return new MockLanguageModelV3({
		provider: "mock",
		modelId: "mock-1",
		doStream: async () => {
			const chunks = steps[call++];
			if (!chunks) throw new Error(`the scripted model has no step ${call}`);
			const { pause } = options;
			if (pause && call === 1) return { stream: pausedStream(chunks, pause) };
			return {
				stream: simulateReadableStream({ chunks, chunkDelayInMs: options.chunkDelayInMs ?? null }),
			};
		},
	});
}

function pausedStream(
	chunks: LanguageModelV3StreamPart[],
	pause: NonNullable<ScriptOptions["pause"]>,
): ReadableStream<LanguageModelV3StreamPart> {
	let next = 0;
	return new ReadableStream({
		async pull(controller) {
			if (next === pause.at) await pause.until;
			const chunk = chunks[next++];
			if (chunk) controller.enqueue(chunk);
			else controller.close();
		},
	});
}

const usage = {
	inputTokens: { total: 12, noCache: 12, cacheRead: 0, cacheWrite: 0 },
	outputTokens: { total: 7, text: 7, reasoning: 0 },
};

/** One step of a reply: its stream parts, begun and finished. */
export function step(
	finish: "stop" | "tool-calls",
	...parts: LanguageModelV3StreamPart[][]
): LanguageModelV3StreamPart[] {
	return [
		{ type: "stream-start", warnings: [] },
		...parts.flat(),
		{ type: "finish", finishReason: { unified: finish, raw: finish }, usage },
	];
}

export function text(id: string, ...deltas: string[]): LanguageModelV3StreamPart[] {
	return [
		{ type: "text-start", id },
		...deltas.map((delta) => ({ type: "text-delta" as const, id, delta })),
		{ type: "text-end", id },
	];
}

export function reasoning(id: string, ...deltas: string[]): LanguageModelV3StreamPart[] {
	return [
		{ type: "reasoning-start", id },
		...deltas.map((delta) => ({ type: "reasoning-delta" as const, id, delta })),
		{ type: "reasoning-end", id },
	];
}

export function toolCall(toolCallId: string, toolName: string, input: unknown): LanguageModelV3StreamPart[] {
	return [{ type: "tool-call", toolCallId, toolName, input: JSON.stringify(input) }];
}
