import type { ResolvedModel } from "@agent/session";

/** What the routes ask about model names, answered by the same resolver the runtime uses. */
export interface ModelCatalog {
	/** Throws MODEL_NOT_FOUND (a 400) for a name the runtime could not run. */
	check(name: string): void;
	/** The model's context window in tokens, when the name resolves. */
	contextWindowOf(name: string): number | undefined;
}

export function createModelCatalog(resolve: (name: string) => ResolvedModel): ModelCatalog {
	return {
		check(name) {
			resolve(name);
		},
		contextWindowOf(name) {
			try {
				return resolve(name).model.contextWindow;
			} catch {
				return undefined;
			}
		},
	};
}
