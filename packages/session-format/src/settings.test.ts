import { describe, expect, expectTypeOf, it } from "vitest";
import type * as z from "zod";
import { type CompactionConfig, DEFAULT_COMPACTION_SETTINGS } from "./compaction-settings.js";
import { sessionMetadataSchema } from "./metadata.js";
import { compactionConfigSchema, compactionSettingsFromConfig } from "./settings.js";

describe("CompactionSettings (spec §7.5.1)", () => {
	it("CompactionConfig, written by hand for readers without zod, is the schema's type (checked by tsc)", () => {
		expectTypeOf<z.infer<typeof compactionConfigSchema>>().toEqualTypeOf<CompactionConfig>();
		expect(compactionConfigSchema.parse({ enabled: false })).toEqual({ enabled: false });
	});

	it("defaults are the spec's: enabled, reserve 16384, keep recent 20000", () => {
		expect(DEFAULT_COMPACTION_SETTINGS).toEqual({ enabled: true, reserveTokens: 16384, keepRecentTokens: 20000 });
		expect(compactionSettingsFromConfig(undefined)).toEqual(DEFAULT_COMPACTION_SETTINGS);
	});

	it("maps config.yaml's snake_case keys, each optional", () => {
		expect(compactionSettingsFromConfig({ reserve_tokens: 1000 })).toEqual({
			enabled: true,
			reserveTokens: 1000,
			keepRecentTokens: 20000,
		});
		expect(compactionSettingsFromConfig({ enabled: false, reserve_tokens: 1, keep_recent_tokens: 2 })).toEqual({
			enabled: false,
			reserveTokens: 1,
			keepRecentTokens: 2,
		});
	});

	it("rejects a misspelled key instead of ignoring it", () => {
		expect(() => compactionSettingsFromConfig({ reserveTokens: 5 } as never)).toThrow();
	});
});

describe("SessionMetadata (spec §7.3 plus what the store needs)", () => {
	it("fills the store fields' defaults on a minimal metadata.json", () => {
		const metadata = sessionMetadataSchema.parse({
			id: "01JMRZ8X1Q9V5E2H3K4M6N7P8R",
			createdAt: "2025-02-11T10:00:00Z",
			lastMessageAt: "2025-02-11T10:00:00Z",
		});
		expect(metadata).toEqual({
			id: "01JMRZ8X1Q9V5E2H3K4M6N7P8R",
			createdAt: "2025-02-11T10:00:00Z",
			lastMessageAt: "2025-02-11T10:00:00Z",
			model: "",
			messageCount: 0,
			source: "interactive",
			metadataVersion: 1,
			lastSeq: 0,
			logBytes: 0,
		});
	});

	it("source is interactive or cron", () => {
		const base = { id: "x", createdAt: "t", lastMessageAt: "t" };
		expect(sessionMetadataSchema.parse({ ...base, source: "cron", cronJobId: "nightly" }).cronJobId).toBe("nightly");
		expect(sessionMetadataSchema.safeParse({ ...base, source: "api" }).success).toBe(false);
	});
});
