import type { ResolvedModel } from "@agent/session";
import { resolveModel as resolveByName } from "@agent/session/models";
import { type Context, fauxAssistantMessage, registerFauxProvider } from "@mariozechner/pi-ai";

/** The name sessions use for the model below. */
export const OPS_MODEL = "faux-ops/ops";

function lastUserText(context: Context): string {
	const last = [...context.messages].reverse().find((message) => message.role === "user");
	if (!last) return "";
	return typeof last.content === "string"
		? last.content
		: last.content.map((block) => (block.type === "text" ? block.text : "")).join("");
}

function aborted(signal: AbortSignal | undefined): Promise<void> {
	return new Promise((resolve) => {
		if (!signal) return;
		if (signal.aborted) resolve();
		else signal.addEventListener("abort", () => resolve(), { once: true });
	});
}

/**
 * A faux provider for operations tests: a message starting "fail" gets the provider's error (as
 * a provider's HTTP 500 reaches pi-ai), "hold" waits until `release()` (a turn that runs for as
 * long as the test wants, without sleeps), anything else answers at once.
 */
export function opsModel() {
	const faux = registerFauxProvider({
		provider: "faux-ops",
		models: [{ id: "ops", contextWindow: 200_000, maxTokens: 1024 }],
	});
	let release = () => {};
	let gate = new Promise<void>((resolve) => (release = resolve));
	const step = async (context: Context, options?: { signal?: AbortSignal }) => {
		const text = lastUserText(context);
		if (text.startsWith("fail")) {
			return fauxAssistantMessage([], {
				stopReason: "error",
				errorMessage: "500 Internal Server Error: provider down",
			});
		}
		// A held reply still stops when its call is aborted, as a provider's request does.
		if (text.startsWith("hold")) await Promise.race([gate, aborted(options?.signal)]);
		return fauxAssistantMessage(`answer to ${text}`);
	};
	faux.setResponses(Array.from({ length: 200 }, () => step));
	const model = faux.getModel();
	const resolveModel = (name: string): ResolvedModel => (name === OPS_MODEL ? { name, model } : resolveByName(name));
	return {
		resolveModel,
		/** Lets every held reply (and the ones after) answer. */
		release() {
			release();
		},
		/** Holds replies again. */
		hold() {
			gate = new Promise<void>((resolve) => (release = resolve));
		},
		unregister: () => faux.unregister(),
	};
}
