import { cachePath, readCacheFile, replaceCacheFile } from "@agent/session-fs";
import { contextWindowOf, DEMO_CONTEXT_WINDOW, isDemoModelName, type ModelRegistry } from "./model-names.js";
import { registryFileKey } from "./model-registry.js";

/** The cache file's name under $AGENT_HOME/cache. */
const CACHE_FILE = "model-windows.json";
/** The largest cache file read: some 50 KiB for pi-ai's thousand-odd models. */
const MAX_CACHE_BYTES = 4 << 20;

/** The context windows of pi-ai's registry, by "provider/model-id", as the cache file keeps them. */
interface CachedWindows {
	key: string;
	windows: Record<string, number>;
}

/**
 * The context windows of pi-ai's models, for a reader that needs one window and no LLM stack
 * (readModelContext, `agent-sessions context`). Loading the registry itself means compiling
 * pi-ai's half-megabyte table of models, about 10 ms of a 17 ms Node start; the windows alone,
 * kept in the store's cache (`home`/cache/model-windows.json, a cache file of session-fs) under
 * the identity of the registry's file (registryFileKey), are a small file. A cache that is
 * missing, damaged, or made from another registry is ignored and written again from the registry
 * (`registry`, loaded then); one that cannot be written only costs the next reader the registry
 * again. The answers are
 * contextWindowOf's: undefined for a model the registry does not know.
 */
export function modelWindows(
	home: string,
	registry: () => Promise<ModelRegistry>,
): { windowOf(name: string): Promise<number | undefined> } {
	let cached: Promise<Record<string, number> | undefined> | undefined;
	const file = cachePath(home, CACHE_FILE);
	return {
		async windowOf(name) {
			if (isDemoModelName(name)) return DEMO_CONTEXT_WINDOW;
			cached ??= windowsFrom(file, registry);
			const windows = await cached;
			if (windows) return Object.hasOwn(windows, name) ? windows[name] : undefined;
			return contextWindowOf(await registry(), name);
		},
	};
}

/** The windows for the registry installed now: from the cache when it was made from it, else made and cached. */
async function windowsFrom(
	file: string,
	registry: () => Promise<ModelRegistry>,
): Promise<Record<string, number> | undefined> {
	const key = registryFileKey();
	if (key === undefined) return undefined;
	const cached = readCache(file);
	if (cached?.key === key) return cached.windows;
	const windows = allWindows(await registry());
	replaceCacheFile(file, Buffer.from(JSON.stringify({ key, windows } satisfies CachedWindows)));
	return windows;
}

/** Every model's window, by the name contextWindowOf takes (the first of a provider's models with an id wins, as there). */
function allWindows(registry: ModelRegistry): Record<string, number> {
	const windows: Record<string, number> = {};
	for (const provider of registry.getProviders()) {
		for (const model of registry.getModels(provider)) {
			const name = `${provider}/${model.id}`;
			if (!Object.hasOwn(windows, name)) windows[name] = model.contextWindow;
		}
	}
	return windows;
}

function readCache(file: string): CachedWindows | undefined {
	const bytes = readCacheFile(file, MAX_CACHE_BYTES);
	if (bytes === undefined) return undefined;
	try {
		const parsed = JSON.parse(bytes.toString("utf8")) as Partial<CachedWindows>;
		if (typeof parsed.key !== "string" || typeof parsed.windows !== "object" || parsed.windows === null)
			return undefined;
		if (!Object.values(parsed.windows).every((window) => typeof window === "number")) return undefined;
		return parsed as CachedWindows;
	} catch {
		return undefined;
	}
}
