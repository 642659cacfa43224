import { DEMO_MODEL_NAME, type ResolvedModel } from "@agent/session";
import { getModels, getProviders, type KnownProvider } from "@mariozechner/pi-ai";
import { HttpError } from "./http-error.js";

/** One model the page can offer, by the name the API takes. */
export interface ModelChoice {
	name: string;
	provider: string;
	label: string;
	contextWindow?: number;
}

/** GET /api/models: what can run now, and the providers that would with an API key. */
export interface ModelList {
	default: string;
	models: ModelChoice[];
	/** Known providers without credentials in the server's environment. */
	unconfigured: string[];
}

/** What the routes ask about model names, answered by the same resolver the runtime uses. */
export interface ModelCatalog {
	/** Throws MODEL_NOT_FOUND (a 400) for a name the runtime could not run. */
	check(name: string): void;
	/**
	 * Throws MODEL_NOT_CONFIGURED (a 400) when the model's provider has no API key in the server's
	 * environment, so a send fails at once with what to do instead of storing the provider's
	 * authentication error as a reply.
	 */
	checkCredentials(name: string): void;
	/** The model's context window in tokens, when the name resolves. */
	contextWindowOf(name: string): number | undefined;
	list(defaultModel: string): ModelList;
}

const KEY_EXAMPLES = "ANTHROPIC_API_KEY, OPENAI_API_KEY or GEMINI_API_KEY";

export function createModelCatalog(resolve: (name: string) => ResolvedModel): ModelCatalog {
	const known = new Set<string>(getProviders());
	/** A provider of the registry whose model resolved without credentials cannot answer. */
	const lacksKey = (resolved: ResolvedModel) => !resolved.apiKey && known.has(resolved.model.provider);
	const canAnswer = (name: string) => {
		try {
			return !lacksKey(resolve(name));
		} catch {
			return false;
		}
	};
	return {
		check(name) {
			resolve(name);
		},
		checkCredentials(name) {
			const resolved = resolve(name);
			if (!lacksKey(resolved)) return;
			throw new HttpError(
				400,
				"MODEL_NOT_CONFIGURED",
				`agent-sessions-server: the server has no API key for ${resolved.model.provider}, so ${name} cannot answer. ` +
					`Set the provider's key (e.g. ${KEY_EXAMPLES}) in the server's environment and restart it, or pick another model (the offline ${DEMO_MODEL_NAME} model always works)`,
			);
		},
		contextWindowOf(name) {
			try {
				return resolve(name).model.contextWindow;
			} catch {
				return undefined;
			}
		},
		list(defaultModel) {
			const models: ModelChoice[] = [{ name: DEMO_MODEL_NAME, provider: DEMO_MODEL_NAME, label: "demo (offline)" }];
			const unconfigured: string[] = [];
			for (const provider of getProviders()) {
				const all = getModels(provider as KnownProvider);
				const first = all[0];
				if (!first || !canAnswer(`${provider}/${first.id}`)) {
					unconfigured.push(provider);
					continue;
				}
				for (const model of all) {
					models.push({
						name: `${provider}/${model.id}`,
						provider,
						label: model.name || model.id,
						contextWindow: model.contextWindow,
					});
				}
			}
			return { default: defaultModel, models, unconfigured };
		},
	};
}
