/**
 * Errors in words, with the fix: what the page says when a request or a turn fails. The server's
 * messages are written for logs and API clients ("agent-sessions-server: ..."); a person at the
 * page gets the cause and what to do, and the raw text only when nothing better is known.
 */

/** The environment variable that holds each common provider's key (as pi-ai reads them). */
const KEY_VARIABLES: Record<string, string> = {
	anthropic: "ANTHROPIC_API_KEY",
	openai: "OPENAI_API_KEY",
	google: "GEMINI_API_KEY",
	"google-vertex": "GOOGLE_CLOUD_API_KEY",
	mistral: "MISTRAL_API_KEY",
	groq: "GROQ_API_KEY",
	xai: "XAI_API_KEY",
	openrouter: "OPENROUTER_API_KEY",
	deepseek: "DEEPSEEK_API_KEY",
	cerebras: "CEREBRAS_API_KEY",
};

/** What to set for a provider's key. */
export function keyVariableOf(provider: string): string {
	return KEY_VARIABLES[provider] ?? `${provider.toUpperCase().replace(/[^A-Z0-9]+/g, "_")}_API_KEY`;
}

/** The provider a model name names ("anthropic/claude-…" → "anthropic"). */
function providerIn(text: string): string | undefined {
	return /no API key for ([a-z0-9-]+)/i.exec(text)?.[1] ?? /\b([a-z0-9-]+)\/[\w.:-]+/i.exec(text)?.[1];
}

function noKey(provider: string): string {
	return `No API key for ${provider}: set ${keyVariableOf(provider)} in the server's environment and restart it, or choose the demo model.`;
}

/** A failed request or turn, as its code and message, in words for the page. */
export function describeError(code: string | undefined, message: string, model?: string): string {
	const text = message.replace(/^(agent-sessions-server|@agent\/[\w-]+): /, "");
	if (code === "MODEL_NOT_CONFIGURED") return noKey(providerIn(message) ?? providerIn(model ?? "") ?? "this provider");
	// The server's own limits (server.limits in config.yaml), before the provider's below.
	if (code === "SPEND_LIMIT_REACHED") {
		return `You reached your daily spend limit: no new turns until midnight UTC. Ask the server's admin to raise it. (${text})`;
	}
	if (code === "RATE_LIMITED" || code === "TOO_MANY_WEBSOCKETS") {
		return "Too many requests from you at once (the server's per-user limit). Wait a few seconds and try again.";
	}
	if (code === "ABORTED" || /request was aborted/i.test(message))
		return "Stopped: what the reply had written so far is kept.";
	if (code === "NETWORK" || /failed to fetch|networkerror|load failed/i.test(message)) {
		return "The server cannot be reached. Check that it is still running; the page reconnects on its own.";
	}
	if (
		/\b(401|403)\b|authentication|unauthori[sz]ed|invalid (x-)?api[ -]?key|api key (is )?(not valid|invalid)/i.test(
			message,
		)
	) {
		const provider = (model && providerIn(model)) ?? providerIn(message) ?? "the provider";
		return `The provider refused the API key for ${provider}: check ${keyVariableOf(provider)} on the server (a key that expired or was revoked), or choose the demo model.`;
	}
	if (/\b429\b|rate limit|overloaded|\b529\b/i.test(message)) {
		return "The provider is busy or rate-limiting this key. Wait a moment and Retry.";
	}
	if (code === "SESSION_LOCKED")
		return `Another process is writing to this session right now. Try again in a moment. (${text})`;
	if (code === "STORAGE_FAILURE" && /temporar|unavailable|restart/i.test(message)) {
		return "The store is away for a moment (restarting or unreachable). Try again shortly.";
	}
	if (code === "MODEL_FAILED" || code === "TURN_FAILED") {
		return `The reply failed: ${text.replace(/^the (turn|model) failed: /i, "")}`;
	}
	return text;
}
