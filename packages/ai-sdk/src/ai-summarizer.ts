import type { CompleteFn } from "@agent/compaction";
import { generateText, type LanguageModel } from "ai";

type SummarizerModel = Parameters<CompleteFn>[0];
type Answer = Awaited<ReturnType<CompleteFn>>;

/**
 * The model @agent/compaction's summarizer is told about: it reads the context window (to
 * summarize in chunks that fit) and the output limit from it; the call itself goes to `model`.
 */
export function summarizerModel(model: LanguageModel, contextWindow: number, maxTokens: number): SummarizerModel {
	const { provider, modelId } =
		typeof model === "string"
			? { provider: "ai-sdk", modelId: model }
			: { provider: model.provider, modelId: model.modelId };
	return {
		id: modelId,
		name: modelId,
		api: "ai-sdk",
		provider,
		baseUrl: "",
		reasoning: false,
		input: ["text"],
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
		contextWindow,
		maxTokens,
	};
}

/**
 * A pi-ai `complete` that asks an AI SDK model (generateText). A failed call is answered as
 * pi-ai answers one, with stopReason "error" and the provider's message, so that the summarizer
 * tells a context overflow (it then sends less) from an error worth retrying.
 */
export function completeWith(model: LanguageModel): CompleteFn {
	return async (summarizer, context, options) => {
		const answer: Answer = {
			role: "assistant",
			content: [],
			api: summarizer.api,
			provider: summarizer.provider,
			model: summarizer.id,
			usage: {
				input: 0,
				output: 0,
				cacheRead: 0,
				cacheWrite: 0,
				totalTokens: 0,
				cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
			},
			stopReason: "stop",
			timestamp: Date.now(),
		};
		try {
			const result = await generateText({
				model,
				...(context.systemPrompt === undefined ? {} : { system: context.systemPrompt }),
				prompt: context.messages.map((message) => ({ role: "user" as const, content: textOf(message.content) })),
				maxRetries: 0, // the summarizer retries, with its own backoff
				...(options?.maxTokens === undefined ? {} : { maxOutputTokens: options.maxTokens }),
				...(options?.signal === undefined ? {} : { abortSignal: options.signal }),
			});
			answer.content = [{ type: "text", text: result.text }];
			answer.usage.input = result.usage.inputTokens ?? 0;
			answer.usage.output = result.usage.outputTokens ?? 0;
			answer.usage.totalTokens = result.usage.totalTokens ?? answer.usage.input + answer.usage.output;
			if (result.finishReason === "length") answer.stopReason = "length";
		} catch (error) {
			answer.stopReason = options?.signal?.aborted ? "aborted" : "error";
			answer.errorMessage = error instanceof Error ? error.message : String(error);
		}
		return answer;
	};
}

/** The summarizer sends one user message of text; anything else is not text to it. */
function textOf(content: unknown): string {
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return "";
	return content
		.map((block: { type?: string; text?: unknown }) => (block.type === "text" ? String(block.text) : ""))
		.join("");
}
