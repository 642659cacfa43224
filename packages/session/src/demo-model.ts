import { headOf, truncateText } from "@agent/session-format/reading";
import {
	type AssistantMessage,
	type Context,
	type FauxProviderRegistration,
	fauxAssistantMessage,
	getApiProvider,
	type Message,
	type Model,
	registerApiProvider,
	registerFauxProvider,
} from "@mariozechner/pi-ai";
import { demoToolStep } from "./demo-tools.js";
import { DEMO_CONTEXT_WINDOW, DEMO_SPEED_ENV } from "./model-names.js";

const DEMO_API = "agent-demo";
/** Responses kept queued on the faux provider; topped up before every call. */
const QUEUE_TARGET = 16;

let registration: FauxProviderRegistration | undefined;

/**
 * The offline demo model: pi-ai's faux provider with a deterministic responder. Chat turns get a
 * short reply that echoes the question; a request that names one of the turn's tools ("read
 * package.json" with a tool `read`) gets a call of that tool, and its result a reply that says what
 * came back (demo-tools.ts); summarization requests (the compaction system prompt) get a valid
 * structured summary built from the conversation, so compaction works offline too.
 */
export function demoModel(options: { tokensPerSecond?: number } = {}): Model<string> {
	if (!registration) {
		const faux = registerFauxProvider({
			api: DEMO_API,
			provider: "demo",
			models: [{ id: "demo", name: "Offline demo model", contextWindow: DEMO_CONTEXT_WINDOW, maxTokens: 4096 }],
			tokensPerSecond: fauxSpeed(options.tokensPerSecond ?? demoSpeedFromEnv() ?? 600),
		});
		// The faux provider answers from a queue of responses, one per call. Wrap its stream so the
		// queue is topped up before every call: any number of concurrent turns always find a response.
		const inner = getApiProvider(DEMO_API);
		if (!inner) throw new Error("the faux provider did not register its api");
		registerApiProvider(
			{
				api: DEMO_API,
				stream: (model, context, streamOptions) => {
					topUp(faux);
					return inner.stream(model, context, withoutSession(streamOptions));
				},
				streamSimple: (model, context, streamOptions) => {
					topUp(faux);
					return inner.streamSimple(model, context, withoutSession(streamOptions));
				},
			},
			"agent-demo-model",
		);
		registration = faux;
	}
	return registration.getModel();
}

/**
 * The faux provider keeps the whole last prompt of every session id it is given, for ever (to
 * estimate cache reads): a server on the demo model grew by each session's context, about 0.6 MiB
 * per 1,000 turns over 64 sessions (tooling/bench server-capacity). Without the id it keeps
 * nothing, and reports the prompt as input tokens, which add up to the same total.
 */
function withoutSession<T extends { sessionId?: string } | undefined>(options: T): T {
	if (options?.sessionId === undefined) return options;
	const { sessionId: _sessionId, ...rest } = options;
	return rest as T;
}

function demoSpeedFromEnv(): number | undefined {
	const raw = process.env[DEMO_SPEED_ENV];
	if (raw === undefined || raw === "") return undefined;
	const speed = Number(raw);
	if (Number.isNaN(speed) || speed <= 0) {
		throw new Error(
			`@agent/session: ${DEMO_SPEED_ENV} must be a positive number of tokens per second (or Infinity), not ${JSON.stringify(raw)}`,
		);
	}
	return speed;
}

/**
 * Infinity streams without waiting, which pi-ai's faux provider does for a speed of 0: a finite
 * speed, however high, still waits a timer turn (at least a millisecond) for every few tokens.
 */
function fauxSpeed(tokensPerSecond: number): number {
	return tokensPerSecond === Number.POSITIVE_INFINITY ? 0 : tokensPerSecond;
}

function topUp(target: FauxProviderRegistration): void {
	const missing = QUEUE_TARGET - target.getPendingResponseCount();
	if (missing <= 0) return;
	target.appendResponses(Array.from({ length: missing }, () => (context: Context) => demoResponse(context)));
}

/** What the demo model answers for a context. Pure and deterministic. */
export function demoResponse(context: Context): AssistantMessage {
	const last = lastUserText(context.messages);
	if (isSummarizationRequest(context)) return fauxAssistantMessage(demoSummary(context.messages, last));
	const toolStep = demoToolStep(context, last);
	if (toolStep) return toolStep;
	const turns = context.messages.filter((message) => message.role === "user").length;
	const question = last.trim().replace(/\s+/g, " ");
	const shown = truncateText(question, 201);
	return fauxAssistantMessage(
		`(demo model) You said: "${shown}". This is turn ${turns} of this conversation. ` +
			"I am the offline demo model: I answer deterministically and never call the network. " +
			"Set an API key (e.g. ANTHROPIC_API_KEY) and choose a model such as anthropic/claude-sonnet-4-5 for real answers.",
	);
}

function isSummarizationRequest(context: Context): boolean {
	const system = context.systemPrompt ?? "";
	return /summariz/i.test(system) && /Do NOT continue the conversation/i.test(system);
}

const DEMO_DONE_LINES = 20;
const DEMO_EARLIER_LINES = 40;

function demoSummary(messages: readonly Message[], request: string): string {
	const previous = /<previous-summary>\n?([\s\S]*?)\n?<\/previous-summary>/.exec(request)?.[1];
	const conversation = /<conversation>\n?([\s\S]*?)\n?<\/conversation>/.exec(request)?.[1] ?? request;
	const userLines = [...conversation.matchAll(/^\[User\]: (.*)$/gm)].map((match) => headOf(match[1] ?? "", 120));
	const goal = userLines[0] ?? "Continue the conversation.";
	// At most the last DEMO_DONE_LINES requests, and the start of an earlier summary: a summary folded
	// into the next chunk's prompt many times over (a long history) must not grow with every chunk.
	const done = userLines.slice(-DEMO_DONE_LINES).map((line) => `- [x] Answered: ${line}`);
	const earlier = previous
		? ["- Earlier summary retained below (its start).", ...indent(previous).slice(0, DEMO_EARLIER_LINES)]
		: [];
	return [
		"## Goal",
		goal,
		"",
		"## Constraints & Preferences",
		"- (none stated)",
		"",
		"## Progress",
		"### Done",
		...(done.length > 0 ? done : ["- [x] (nothing yet)"]),
		"",
		"### In Progress",
		"- [ ] Continue the conversation",
		"",
		"### Blocked",
		"- (none)",
		"",
		"## Key Decisions",
		`- **Summarized ${messages.length} message(s)**: produced offline by the demo model`,
		"",
		"## Next Steps",
		"1. Answer the next user message",
		"",
		"## Critical Context",
		...(earlier.length > 0 ? earlier : ["- (none)"]),
	].join("\n");
}

function indent(text: string): string[] {
	return text.split("\n").map((line) => `  ${line}`);
}

function lastUserText(messages: readonly Message[]): string {
	for (let i = messages.length - 1; i >= 0; i--) {
		const message = messages[i];
		if (message?.role !== "user") continue;
		if (typeof message.content === "string") return message.content;
		return message.content.map((block) => (block.type === "text" ? block.text : "")).join("\n");
	}
	return "";
}
