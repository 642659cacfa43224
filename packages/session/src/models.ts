import { type Api, getEnvApiKey, getModels, getProviders, type Model } from "@mariozechner/pi-ai";
import { demoModel } from "./demo-model.js";
import { DEMO_MODEL_NAME, defaultModelIn, isDemoModelName, type ModelRegistry, registryModel } from "./model-names.js";

/** A model resolved for a turn: the pi-ai Model, its "provider/model-id" name and the API key. */
export interface ResolvedModel {
	name: string;
	model: Model<Api>;
	apiKey?: string;
}

const PI_REGISTRY: ModelRegistry = { getProviders, getModels, getEnvApiKey };

/**
 * Resolves "provider/model-id" through pi-ai's registry (API key from the environment), or
 * "demo" to the offline demo model. Throws MODEL_NOT_FOUND with what to do.
 */
export function resolveModel(name: string): ResolvedModel {
	if (isDemoModelName(name)) return { name, model: demoModel() as Model<Api> };
	const model = registryModel(PI_REGISTRY, name);
	const apiKey = getEnvApiKey(name.slice(0, name.indexOf("/")));
	return apiKey ? { name, model, apiKey } : { name, model };
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
	return defaultModelIn(PI_REGISTRY, configured, env);
}
