import * as z from "zod";
import { type CompactionConfig, type CompactionSettings, compactionSettingsOf } from "./compaction-settings.js";
import { lazySchema } from "./lazy-schema.js";

/** The `compaction:` section of config.yaml, in its snake_case spelling. */
export const compactionConfigSchema = lazySchema(() =>
	z
		.object({
			enabled: z.boolean().optional(),
			reserve_tokens: z.number().int().min(0).optional(),
			keep_recent_tokens: z.number().int().min(0).optional(),
		})
		.strict(),
);

/** The settings of a config section, checked by compactionConfigSchema (throws on a bad one). */
export function compactionSettingsFromConfig(config: CompactionConfig | undefined | null): CompactionSettings {
	// No section: the defaults, without building the schema (every process that loads a config asks).
	if (config === undefined || config === null) return compactionSettingsOf(config);
	return compactionSettingsOf(compactionConfigSchema.parse(config));
}
