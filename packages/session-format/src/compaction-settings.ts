/**
 * The `compaction:` section of config.yaml, in its snake_case spelling, as compactionConfigSchema
 * (settings.ts) accepts it; settings.ts fails to compile when the two drift apart.
 */
export interface CompactionConfig {
	enabled?: boolean | undefined;
	reserve_tokens?: number | undefined;
	keep_recent_tokens?: number | undefined;
}

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

/**
 * Maps the snake_case `compaction:` section of config.yaml onto settings, with the spec defaults,
 * for a section already checked by compactionConfigSchema (a config file's
 * schema includes it), with defaults for what it leaves out; compactionSettingsFromConfig checks
 * an unchecked one first.
 */
export function compactionSettingsOf(config: CompactionConfig | undefined | null): CompactionSettings {
	if (config === undefined || config === null) return { ...DEFAULT_COMPACTION_SETTINGS };
	return {
		enabled: config.enabled ?? DEFAULT_COMPACTION_SETTINGS.enabled,
		reserveTokens: config.reserve_tokens ?? DEFAULT_COMPACTION_SETTINGS.reserveTokens,
		keepRecentTokens: config.keep_recent_tokens ?? DEFAULT_COMPACTION_SETTINGS.keepRecentTokens,
	};
}
