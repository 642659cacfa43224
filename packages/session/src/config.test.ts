import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { DEFAULT_COMPACTION_SETTINGS } from "@agent/session-format";
import { describe, expect, it } from "vitest";
import { parseConfig } from "./config-file.js";
import { loadConfig } from "./config-load.js";

describe("config.yaml", () => {
	it("defaults to the spec's compaction settings when the file is missing", async () => {
		const home = await fs.mkdtemp(path.join(os.tmpdir(), "agent-config-"));
		const config = await loadConfig(home);
		expect(config.compaction).toEqual(DEFAULT_COMPACTION_SETTINGS);
		expect(config.durability).toBe("write");
		expect(config.jobs).toEqual([]);
	});

	it("maps the snake_case compaction section (spec §7.5.1) and the rest", () => {
		const config = parseConfig(
			[
				"default_model: anthropic/claude-sonnet-4-5",
				"compaction:",
				"  enabled: false",
				"  reserve_tokens: 8000",
				"  keep_recent_tokens: 12000",
				"durability: fsync",
				"jobs:",
				"  - id: daily-report",
				'    schedule: "0 9 * * *"',
				"    prompt: Summarize yesterday",
			].join("\n"),
		);
		expect(config.defaultModel).toBe("anthropic/claude-sonnet-4-5");
		expect(config.compaction).toEqual({ enabled: false, reserveTokens: 8000, keepRecentTokens: 12000 });
		expect(config.durability).toBe("fsync");
		expect(config.jobs).toEqual([
			{ id: "daily-report", schedule: "0 9 * * *", prompt: "Summarize yesterday", enabled: true },
		]);
	});

	it("server limits have defaults, and the file's values win; a weak metrics token or a bad OTLP URL is refused by path", () => {
		const defaults = parseConfig("");
		expect(defaults.server).toMatchObject({ maxQueuedTurns: 100, maxConcurrentTurns: 64 });
		expect(defaults.server.metricsToken).toBeUndefined();
		const config = parseConfig(
			[
				"server:",
				"  max_queued_turns: 3",
				"  max_concurrent_turns: 2",
				"  metrics_token: scraper-token-0123456789",
				"  otlp_endpoint: http://127.0.0.1:4318",
			].join("\n"),
		);
		expect(config.server).toMatchObject({
			maxQueuedTurns: 3,
			maxConcurrentTurns: 2,
			metricsToken: "scraper-token-0123456789",
			otlpEndpoint: "http://127.0.0.1:4318",
		});
		expect(() => parseConfig("server:\n  metrics_token: short\n")).toThrow(/server\.metrics_token.*16 characters/);
		expect(() => parseConfig("server:\n  otlp_endpoint: collector\n")).toThrow(/server\.otlp_endpoint/);
		expect(() => parseConfig("server:\n  max_concurrent_turns: 0\n")).toThrow(/server\.max_concurrent_turns/);
	});

	it("rejects an unknown key with its path and what to do", () => {
		expect(() => parseConfig("compaction:\n  reserve: 5\n")).toThrow(/compaction.*reserve|Unrecognized key/);
		expect(() => parseConfig("durability: sometimes\n")).toThrow(/durability/);
	});

	it("rejects YAML that does not parse, naming the file", () => {
		expect(() => parseConfig("compaction: [unclosed", "/tmp/x/config.yaml")).toThrow(
			/\/tmp\/x\/config.yaml is not valid YAML/,
		);
	});
});
