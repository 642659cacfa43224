import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import {
	type Context,
	type FauxResponseStep,
	fauxAssistantMessage,
	registerFauxProvider,
	type StreamOptions,
} from "@mariozechner/pi-ai";
import { AgentSessions, type AgentSessionsOptions, resolveConfig } from "../src/index.js";

export async function tempHome(): Promise<string> {
	return fs.mkdtemp(path.join(os.tmpdir(), "agent-session-runtime-"));
}

/** The text of the last user message of a pi-ai context. */
export function lastUserText(context: Context): string {
	for (let i = context.messages.length - 1; i >= 0; i--) {
		const message = context.messages[i];
		if (message?.role !== "user") continue;
		return typeof message.content === "string"
			? message.content
			: message.content.map((block) => (block.type === "text" ? block.text : "")).join("");
	}
	return "";
}

export function isSummaryRequest(context: Context): boolean {
	return (context.systemPrompt ?? "").includes("context summarization assistant");
}

export const VALID_SUMMARY = [
	"## Goal",
	"Test the runtime.",
	"## Constraints & Preferences",
	"- none",
	"## Progress",
	"### Done",
	"- [x] things",
	"### In Progress",
	"- [ ] more",
	"### Blocked",
	"- none",
	"## Key Decisions",
	"- **Use faux**: offline",
	"## Next Steps",
	"1. continue",
	"## Critical Context",
	"- none",
].join("\n");

/**
 * A faux model for runtime tests: every request is recorded; summarization requests get a valid
 * summary; chat requests go to `chat` (default: "reply to <last user text>").
 */
export function fauxModel(
	options: {
		contextWindow?: number;
		/** Stream slowly (pi-ai's faux tokensPerSecond), so a test can act while a reply streams. */
		tokensPerSecond?: number;
		chat?: (context: Context, call: number) => ReturnType<typeof fauxAssistantMessage>;
	} = {},
) {
	const faux = registerFauxProvider({
		provider: "faux",
		models: [{ id: "faux-small", contextWindow: options.contextWindow ?? 128_000, maxTokens: 1024 }],
		...(options.tokensPerSecond !== undefined ? { tokensPerSecond: options.tokensPerSecond } : {}),
	});
	const requests: Context[] = [];
	/** The stream options of every chat request (a summary request's are not kept). */
	const chatOptions: Array<StreamOptions & { reasoning?: string }> = [];
	let chatCalls = 0;
	const step: FauxResponseStep = (context, streamOptions) => {
		requests.push(structuredClone(context));
		if (isSummaryRequest(context)) return fauxAssistantMessage(VALID_SUMMARY);
		chatOptions.push({ ...streamOptions });
		const call = chatCalls++;
		return options.chat ? options.chat(context, call) : fauxAssistantMessage(`reply to ${lastUserText(context)}`);
	};
	faux.setResponses(Array.from({ length: 500 }, () => step));
	const model = faux.getModel();
	return {
		faux,
		requests,
		chatOptions,
		resolveModel: (name: string) => ({ name, model }),
	};
}

/** A chat that answers `trigger` once with a provider's context-overflow error, and everything else (and it again) normally. */
export function overflowsOnce(trigger: string): (context: Context) => ReturnType<typeof fauxAssistantMessage> {
	let overflowed = false;
	return (context) => {
		if (lastUserText(context) === trigger && !overflowed) {
			overflowed = true;
			return fauxAssistantMessage([], {
				stopReason: "error",
				errorMessage: "prompt is too long: 250000 tokens > 200000 maximum",
			});
		}
		return fauxAssistantMessage(`reply to ${lastUserText(context)}`);
	};
}

export async function openRuntime(
	home: string,
	options: Partial<AgentSessionsOptions> & {
		compaction?: Partial<ReturnType<typeof resolveConfig>["compaction"]>;
	} = {},
) {
	const base = resolveConfig();
	const config = { ...base, compaction: { ...base.compaction, ...options.compaction } };
	return AgentSessions.open({ home, config, ...options });
}
