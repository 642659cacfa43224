import { AgentSessionError } from "@agent/session-format/reading";
import type { Api, getEnvApiKey, getModels, getProviders, KnownProvider, Model } from "@mariozechner/pi-ai";

/**
 * What naming a model needs of pi-ai: its registry of models and where API keys come from. The
 * runtime hands pi-ai's own functions; a reader that must not load pi-ai's LLM stack hands the
 * same functions loaded without it (loadModelRegistry), so both resolve names by the code below.
 */
export interface ModelRegistry {
	getProviders: typeof getProviders;
	getModels: typeof getModels;
	getEnvApiKey: typeof getEnvApiKey;
}

/** A model resolved for a turn: the pi-ai Model, its "provider/model-id" name and the API key. */
export interface ResolvedModel {
	name: string;
	model: Model<Api>;
	apiKey?: string;
}

/** The name that selects the offline demo model. */
export const DEMO_MODEL_NAME = "demo";

/** The environment variable that sets the demo model's speed (tokens per second; `Infinity`: no waiting), e.g. to try out a long turn. */
export const DEMO_SPEED_ENV = "AGENT_DEMO_TOKENS_PER_SECOND";

/**
 * The name a session records for a model: "provider/model-id", as the store derives it from
 * assistant replies ("demo" becomes "demo/demo", the demo model's provider and id).
 */
export function canonicalModelName(name: string): string {
	return name === DEMO_MODEL_NAME ? `${DEMO_MODEL_NAME}/${DEMO_MODEL_NAME}` : name;
}
/** The demo model's context window, in tokens. */
export const DEMO_CONTEXT_WINDOW = 32_000;

/** Models to fall back on, in order, when a provider's API key is in the environment. */
const PREFERRED_BY_PROVIDER: ReadonlyArray<readonly [string, string]> = [
	["anthropic", "claude-sonnet-4-5"],
	["openai", "gpt-5.4-mini"],
	["google", "gemini-flash-latest"],
];

/** True for "demo" and "demo/…": the offline demo model. */
export function isDemoModelName(name: string): boolean {
	return name === DEMO_MODEL_NAME || name.startsWith(`${DEMO_MODEL_NAME}/`);
}

/** The registry's model for "provider/model-id". Throws MODEL_NOT_FOUND with what to do. */
export function registryModel(registry: ModelRegistry, name: string): Model<Api> {
	const slash = name.indexOf("/");
	if (slash <= 0 || slash === name.length - 1) {
		throw new AgentSessionError(
			"MODEL_NOT_FOUND",
			`@agent/session: model ${JSON.stringify(name)} is not "provider/model-id" (e.g. anthropic/claude-sonnet-4-5) or "demo"`,
		);
	}
	const provider = name.slice(0, slash);
	const modelId = name.slice(slash + 1);
	if (!(registry.getProviders() as string[]).includes(provider)) {
		throw new AgentSessionError(
			"MODEL_NOT_FOUND",
			`@agent/session: unknown provider ${JSON.stringify(provider)}; known providers: ${registry.getProviders().join(", ")}`,
		);
	}
	const models = registry.getModels(provider as KnownProvider);
	const model = models.find((candidate) => candidate.id === modelId);
	if (!model) {
		throw new AgentSessionError(
			"MODEL_NOT_FOUND",
			`@agent/session: provider ${provider} has no model ${JSON.stringify(modelId)}; pick one of pi-ai's registry (e.g. ${models[0]?.id ?? "none"})`,
		);
	}
	return model as Model<Api>;
}

/** A model's context window; undefined for a model the registry does not know (e.g. an imported session's). */
export function contextWindowOf(registry: ModelRegistry, name: string): number | undefined {
	if (isDemoModelName(name)) return DEMO_CONTEXT_WINDOW;
	try {
		return registryModel(registry, name).contextWindow;
	} catch {
		return undefined;
	}
}

/**
 * The model to use when none is given: the configured default, else AGENT_MODEL, else the first
 * provider with an API key in the environment, else the offline demo model.
 */
export function defaultModelIn(
	registry: ModelRegistry,
	configured: string | undefined,
	env: NodeJS.ProcessEnv,
): string {
	if (configured) return configured;
	if (env.AGENT_MODEL) return env.AGENT_MODEL;
	for (const [provider, modelId] of PREFERRED_BY_PROVIDER) {
		if (registry.getEnvApiKey(provider)) return `${provider}/${modelId}`;
	}
	return DEMO_MODEL_NAME;
}
