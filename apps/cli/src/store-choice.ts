import { loadConfig } from "@agent/session";

/**
 * Whether config.yaml at `home` names a store (`store:`), read by @agent/session's own config
 * loading, exactly as the runtime reads it. A module of its own, so that the bundle links it to
 * the config loader alone, not to the runtime; cli-context.ts loads it only when there is a
 * config.yaml, so a home without one loads no YAML parser.
 */
export async function configNamesStore(home: string): Promise<boolean> {
	return (await loadConfig(home)).store !== undefined;
}
