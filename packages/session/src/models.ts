import { type Api, getEnvApiKey, getModels, getProviders, type Model } from "@mariozechner/pi-ai";
import { demoModel } from "./demo-model.js";
import {
	defaultModelIn,
	isDemoModelName,
	type ModelRegistry,
	type ResolvedModel,
	registryModel,
} from "./model-names.js";

const PI_REGISTRY: ModelRegistry = { getProviders, getModels, getEnvApiKey };

/**
 * @agent/session/models: resolving model names with pi-ai (which it loads), and the offline models.
 * Apart from the root, which loads pi-ai only when a turn needs a model.
 */

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
 * The model to use when none is given: the configured default, else the first provider with an
 * API key in the environment, else the offline demo model.
 */
export function defaultModelName(configured?: string, env: NodeJS.ProcessEnv = process.env): string {
	return defaultModelIn(PI_REGISTRY, configured, env);
}

export { demoModel, demoResponse } from "./demo-model.js";
export type { ResolvedModel } from "./model-names.js";
