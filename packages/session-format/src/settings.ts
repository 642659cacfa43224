import * as z from "zod";
import { lazySchema } from "./lazy-schema.js";

/** Compaction settings (spec §7.5.1). */
export interface CompactionSettings {
	enabled: boolean;
	/** Tokens reserved for the LLM's response. */
	reserveTokens: number;
	/** Recent tokens kept uncompacted. */
	keepRecentTokens: number;
}

export const DEFAULT_COMPACTION_SETTINGS: Readonly<CompactionSettings> = Object.freeze({
	enabled: true,
	reserveTokens: 16384,
	keepRecentTokens: 20000,
});

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

export type CompactionConfig = z.infer<typeof compactionConfigSchema>;

/** Maps the snake_case `compaction:` section of config.yaml onto settings, with the spec defaults. */
export function compactionSettingsFromConfig(config: CompactionConfig | undefined | null): CompactionSettings {
	// No section: the defaults, without building the schema (every process that loads a config asks).
	if (config === undefined || config === null) return { ...DEFAULT_COMPACTION_SETTINGS };
	const parsed = compactionConfigSchema.parse(config);
	return {
		enabled: parsed.enabled ?? DEFAULT_COMPACTION_SETTINGS.enabled,
		reserveTokens: parsed.reserve_tokens ?? DEFAULT_COMPACTION_SETTINGS.reserveTokens,
		keepRecentTokens: parsed.keep_recent_tokens ?? DEFAULT_COMPACTION_SETTINGS.keepRecentTokens,
	};
}

/** The snake_case form of settings, as written to config.yaml. */
export function compactionSettingsToConfig(settings: CompactionSettings): Required<CompactionConfig> {
	return {
		enabled: settings.enabled,
		reserve_tokens: settings.reserveTokens,
		keep_recent_tokens: settings.keepRecentTokens,
	};
}
