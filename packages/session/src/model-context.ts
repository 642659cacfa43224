import type { OpenOptions, SessionStore } from "@agent/session-format/reading";
import { resolveHome } from "@agent/session-fs";
import { loadConfig } from "./config-load.js";
import { type ModelContextSettings, modelContextOf } from "./model-context-of.js";
import { defaultModelIn, type ModelRegistry } from "./model-names.js";
import { loadModelRegistry } from "./model-registry.js";
import { modelWindows } from "./model-windows.js";
import type { ModelContext } from "./pruned-context.js";

/**
 * @agent/session/model-context: readModelContext on an entry point of its own, for a reader that
 * starts in a fraction of the time the root takes (`agent-sessions context`).
 */

/**
 * modelContextOf with the settings a runtime at `home` would use (its config.yaml, pi-ai's
 * registry), without a runtime: for a reader that must not load the LLM stack, such as
 * `agent-sessions context`, which then starts in a fraction of the time. The model's window
 * comes from the windows kept in `home`'s cache (model-windows.ts); pi-ai's registry is loaded
 * only when they are not there yet, or for a session that records no model.
 */
export async function readModelContext(
	store: SessionStore,
	sessionId: string,
	options: OpenOptions & { home?: string } = {},
): Promise<ModelContext> {
	const { home, ...open } = options;
	const storeHome = resolveHome(home);
	const config = await loadConfig(storeHome);
	let registry: Promise<ModelRegistry> | undefined;
	const loadRegistry = () => {
		registry ??= loadModelRegistry();
		return registry;
	};
	const windows = modelWindows(storeHome, loadRegistry);
	const settings: ModelContextSettings = {
		config,
		defaultModel: async () => defaultModelIn(await loadRegistry(), config.defaultModel, process.env),
		windowOf: (model) => windows.windowOf(model),
	};
	return modelContextOf(store, sessionId, settings, open);
}
