import { describe, expect, it } from "vitest";
import { createLogger, logSettingsFromEnv } from "./log.js";

const at = () => new Date("2026-05-01T09:00:00.000Z");

describe("the server's log", () => {
	it("text: time, level, event, then key=value, quoting values a reader could misread; undefined fields left out", () => {
		const lines: string[] = [];
		const log = createLogger({ format: "text", write: (line) => lines.push(line), now: at });
		log("warn", "model.failed", {
			sessionId: "01ABC",
			error: 'provider said "no" = 500',
			empty: "",
			skipped: undefined,
			ok: true,
		});
		expect(lines).toEqual([
			'2026-05-01T09:00:00.000Z WARN  model.failed sessionId=01ABC error="provider said \\"no\\" = 500" empty="" ok=true',
		]);
	});

	it("a value with a newline stays on one line in both formats", () => {
		const lines: string[] = [];
		for (const format of ["text", "json"] as const) {
			createLogger({ format, write: (line) => lines.push(line), now: at })("error", "request.failed", {
				error: "Error: boom\n    at x",
			});
		}
		for (const line of lines) expect(line).not.toContain("\n");
		expect(JSON.parse(lines[1] as string)).toEqual({
			time: "2026-05-01T09:00:00.000Z",
			level: "error",
			event: "request.failed",
			error: "Error: boom\n    at x",
		});
	});

	it("json: a field never overwrites time, level or event", () => {
		const lines: string[] = [];
		createLogger({ format: "json", write: (line) => lines.push(line), now: at })("info", "turn", {
			level: "debug",
			event: "x",
		});
		expect(JSON.parse(lines[0] as string)).toMatchObject({ level: "info", event: "turn" });
	});

	it("drops lines below the level", () => {
		const lines: string[] = [];
		const log = createLogger({ level: "warn", write: (line) => lines.push(line), now: at });
		log("debug", "a");
		log("info", "b");
		log("warn", "c");
		log("error", "d");
		expect(lines.map((line) => line.split(/\s+/)[2])).toEqual(["c", "d"]);
	});

	it("AGENT_LOG_FORMAT and AGENT_LOG_LEVEL are read, and a typo names the variable and the choices", () => {
		expect(logSettingsFromEnv({ AGENT_LOG_FORMAT: "json", AGENT_LOG_LEVEL: "debug" })).toEqual({
			format: "json",
			level: "debug",
		});
		expect(logSettingsFromEnv({})).toEqual({});
		expect(() => logSettingsFromEnv({ AGENT_LOG_FORMAT: "yaml" })).toThrow(
			/AGENT_LOG_FORMAT must be one of text, json/,
		);
	});
});
