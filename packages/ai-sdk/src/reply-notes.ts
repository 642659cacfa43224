import type { UIMessage } from "ai";
import type { ChatFinishEvent, ModelRef } from "./chat-store-types.js";
import { invalidArgument } from "./errors.js";
import type { ReplyNotes } from "./map-message.js";

/** How a reply ended, from what toUIMessageStream's onFinish says, and who wrote it. */
export function replyNotes(event: ChatFinishEvent<UIMessage>, model: ReplyNotes["model"]): ReplyNotes {
	const notes: ReplyNotes = model ? { model } : {};
	// ai 7 calls onEnd with isCancelled when the client went away mid-reply (without consumeStream):
	// the reply stopped where it was, as an aborted one does.
	if (event.isAborted || event.isCancelled || event.outcome?.status === "aborted") {
		notes.stop = "aborted";
	} else if (event.outcome?.status === "failed" || event.finishReason === "error") {
		// A provider's error mid-reply ends the stream with finishReason "error" (its message went
		// to the stream's onError); a failure of the stream's own processing is a failed outcome.
		notes.stop = "error";
		const error = event.outcome?.status === "failed" ? event.outcome.error : undefined;
		notes.errorMessage =
			error instanceof Error
				? error.message
				: error === undefined
					? "the reply's stream ended with an error"
					: String(error);
	}
	return notes;
}

/** A model reference as our records name it: provider and model id. */
export function modelOf(model: ModelRef | undefined, call: string): ReplyNotes["model"] {
	if (model === undefined) return undefined;
	if (typeof model === "string" && model.length > 0) {
		const slash = model.indexOf("/");
		return slash > 0
			? { provider: model.slice(0, slash), modelId: model.slice(slash + 1) }
			: { provider: "ai-sdk", modelId: model };
	}
	if (
		typeof model === "object" &&
		model !== null &&
		typeof model.provider === "string" &&
		typeof model.modelId === "string"
	) {
		return { provider: model.provider, modelId: model.modelId };
	}
	throw invalidArgument(`${call}: model must be "provider/model-id" or an AI SDK model (with provider and modelId)`);
}
