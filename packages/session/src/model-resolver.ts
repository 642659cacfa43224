import { missingKeyError } from "./model-keys.js";
import {
	contextWindowOf,
	defaultModelIn,
	isDemoModelName,
	type ModelRegistry,
	type ResolvedModel,
	registryModel,
} from "./model-names.js";
import { loadModelRegistry } from "./model-registry.js";

/** A runtime's own model resolver (AgentSessionsOptions.resolveModel). */
export type ModelResolverFn = (name: string) => ResolvedModel | Promise<ResolvedModel>;

/**
 * How a runtime names, checks and resolves models. Checking a name (create, enqueue) and choosing
 * the default need only pi-ai's registry, loaded without pi-ai's entry point; pi-ai itself is
 * loaded when a model is resolved for a call (a turn, a compaction, a title).
 */
export class ModelResolver {
	private registry: ModelRegistry | undefined;

	constructor(private readonly custom?: ModelResolverFn) {}

	/** Loads the registry (once): the model names, and where API keys come from. */
	async ready(): Promise<ModelRegistry> {
		this.registry ??= await loadModelRegistry();
		return this.registry;
	}

	/** The configured default, else AGENT_MODEL, else the first provider with a key, else "demo" (after `ready`). */
	defaultModel(configured: string | undefined): string {
		if (!this.registry) throw new Error("@agent/session: ModelResolver.defaultModel() before ready()");
		return defaultModelIn(this.registry, configured, process.env);
	}

	/**
	 * Throws MODEL_NOT_FOUND for a name that does not resolve, and MODEL_NOT_CONFIGURED (naming the
	 * variable to set) for a model of pi-ai's registry whose API key is not in the environment.
	 */
	async check(name: string): Promise<void> {
		if (this.custom) {
			this.checkKey(await this.custom(name));
			return;
		}
		if (isDemoModelName(name)) return;
		const registry = await this.ready();
		const model = registryModel(registry, name);
		if (!registry.getEnvApiKey(model.provider)) throw missingKeyError(name, model.provider);
	}

	/** The model for a call, its API key checked as `check` does. Loads pi-ai. */
	async resolve(name: string): Promise<ResolvedModel> {
		const resolved = this.custom ? await this.custom(name) : (await import("./models.js")).resolveModel(name);
		this.checkKey(resolved);
		return resolved;
	}

	/** A model's context window; undefined for a model this runtime cannot resolve (e.g. an imported session's). */
	async windowOf(name: string): Promise<number | undefined> {
		if (!this.custom) return contextWindowOf(await this.ready(), name);
		try {
			return (await this.custom(name)).model.contextWindow;
		} catch {
			return undefined;
		}
	}

	private checkKey(resolved: ResolvedModel): void {
		const provider = resolved.model.provider;
		if (resolved.apiKey || !this.registry || !(this.registry.getProviders() as string[]).includes(provider)) return;
		throw missingKeyError(resolved.name, provider);
	}
}
