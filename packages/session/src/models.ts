import { AgentSessionError } from "@agent/session-format";
import { type Api, getEnvApiKey, getModels, getProviders, type KnownProvider, type Model } from "@mariozechner/pi-ai";
import { DEMO_MODEL_NAME, demoModel } from "./demo-model.js";

/** A model resolved for a turn: the pi-ai Model, its "provider/model-id" name and the API key. */
export interface ResolvedModel {
	name: string;
	model: Model<Api>;
	apiKey?: string;
}

/** Models to fall back on, in order, when a provider's API key is in the environment. */
const PREFERRED_BY_PROVIDER: ReadonlyArray<readonly [string, string]> = [
	["anthropic", "claude-sonnet-4-5"],
	["openai", "gpt-5.4-mini"],
	["google", "gemini-flash-latest"],
];

/**
 * Resolves "provider/model-id" through pi-ai's registry (API key from the environment), or
 * "demo" to the offline demo model. Throws MODEL_NOT_FOUND with what to do.
 */
export function resolveModel(name: string): ResolvedModel {
	if (name === DEMO_MODEL_NAME || name.startsWith(`${DEMO_MODEL_NAME}/`))
		return { name, model: demoModel() as Model<Api> };
	const slash = name.indexOf("/");
	if (slash <= 0 || slash === name.length - 1) {
		throw new AgentSessionError(
			"MODEL_NOT_FOUND",
			`@agent/session: model ${JSON.stringify(name)} is not "provider/model-id" (e.g. anthropic/claude-sonnet-4-5) or "demo"`,
		);
	}
	const provider = name.slice(0, slash);
	const modelId = name.slice(slash + 1);
	if (!(getProviders() as string[]).includes(provider)) {
		throw new AgentSessionError(
			"MODEL_NOT_FOUND",
			`@agent/session: unknown provider ${JSON.stringify(provider)}; known providers: ${getProviders().join(", ")}`,
		);
	}
	const model = getModels(provider as KnownProvider).find((candidate) => candidate.id === modelId);
	if (!model) {
		throw new AgentSessionError(
			"MODEL_NOT_FOUND",
			`@agent/session: provider ${provider} has no model ${JSON.stringify(modelId)}; pick one of pi-ai's registry (e.g. ${getModels(provider as KnownProvider)[0]?.id ?? "none"})`,
		);
	}
	const apiKey = getEnvApiKey(provider);
	return apiKey ? { name, model: model as Model<Api>, apiKey } : { name, model: model as Model<Api> };
}

/**
 * The name a session records for a model: "provider/model-id", as the store derives it from
 * assistant replies ("demo" becomes "demo/demo", the demo model's provider and id).
 */
export function canonicalModelName(name: string): string {
	return name === DEMO_MODEL_NAME ? `${DEMO_MODEL_NAME}/${DEMO_MODEL_NAME}` : name;
}

/**
 * The model to use when none is given: the configured default, else the first provider with an
 * API key in the environment, else the offline demo model.
 */
export function defaultModelName(configured?: string, env: NodeJS.ProcessEnv = process.env): string {
	if (configured) return configured;
	if (env.AGENT_MODEL) return env.AGENT_MODEL;
	for (const [provider, modelId] of PREFERRED_BY_PROVIDER) {
		if (getEnvApiKey(provider)) return `${provider}/${modelId}`;
	}
	return DEMO_MODEL_NAME;
}
