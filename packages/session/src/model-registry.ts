import { statSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { ModelRegistry } from "./model-names.js";

/**
 * pi-ai's model registry and API-key lookup without pi-ai's entry point, which loads its whole
 * LLM stack (typebox alone is some 680 modules: about 0.4 s of CPU for a process that only needs a
 * model's context window, as `agent-sessions context` does). pi-ai exports these from two
 * self-contained files beside its entry point (dist/models.js with the generated registry, and
 * dist/env-api-keys.js); they are loaded by URL, which is the same module instance pi-ai's entry
 * point uses, so a process that later loads all of pi-ai shares one registry. Should a pi-ai
 * release move them, the entry point is loaded instead: slower, same answers.
 */
export async function loadModelRegistry(): Promise<ModelRegistry> {
	try {
		const entry = piAiEntry();
		const [models, keys] = await Promise.all([
			import(new URL("./models.js", entry).href) as Promise<Partial<ModelRegistry>>,
			import(new URL("./env-api-keys.js", entry).href) as Promise<Partial<ModelRegistry>>,
		]);
		const { getProviders, getModels } = models;
		const { getEnvApiKey } = keys;
		if (getProviders && getModels && getEnvApiKey) return { getProviders, getModels, getEnvApiKey };
	} catch {
		// Not where this pi-ai version keeps them (or no import.meta.resolve): the entry point below.
	}
	return import("@mariozechner/pi-ai");
}

/** The URL of pi-ai's entry point, found without loading it. */
function piAiEntry(): string {
	return import.meta.resolve("@mariozechner/pi-ai");
}

/**
 * What identifies the registry's data on disk (pi-ai's dist/models.js: its inode, size and
 * modification time, which an install or upgrade of pi-ai changes): the key of caches derived
 * from the registry (model-windows.ts). Undefined when it cannot be found.
 */
export function registryFileKey(): string | undefined {
	try {
		const stat = statSync(fileURLToPath(new URL("./models.js", piAiEntry())));
		return `${stat.ino}-${stat.size}-${stat.mtimeMs}`;
	} catch {
		return undefined;
	}
}
