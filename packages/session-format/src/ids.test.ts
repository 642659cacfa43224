import { describe, expect, it } from "vitest";
import { InvalidSessionIdError, isAgentSessionError } from "./errors.js";
import { assertSessionId, isSessionId, newSessionId, SESSION_ID_PATTERN, sessionIdTime } from "./ids.js";

describe("session id generation", () => {
	it("generates valid ULIDs that sort in creation order, also within one millisecond", () => {
		const ids = Array.from({ length: 1000 }, () => newSessionId(1_739_268_000_000));
		for (const id of ids) expect(isSessionId(id)).toBe(true);
		expect(new Set(ids).size).toBe(ids.length);
		expect([...ids].sort()).toEqual(ids);
	});

	it("ids of later times sort after ids of earlier times", () => {
		const early = newSessionId(1_000_000_000_000);
		const late = newSessionId(1_700_000_000_000);
		expect(early < late).toBe(true);
	});

	it("encodes its creation time", () => {
		expect(sessionIdTime(newSessionId(1_739_268_000_123))).toBe(1_739_268_000_123);
	});

	it("the pattern is the spec's", () => {
		expect(SESSION_ID_PATTERN.source).toBe("^[0-9A-HJKMNP-TV-Z]{26}$");
	});
});

describe("session id validation", () => {
	const valid = "01JMRZ8X1Q9V5E2H3K4M6N7P8R";

	it("accepts a ULID", () => {
		expect(assertSessionId(valid)).toBe(valid);
	});

	it.each([
		["lowercase", valid.toLowerCase()],
		["an I", `01JMRZ8X1Q9V5E2H3K4M6N7P8I`],
		["an L", `01JMRZ8X1Q9V5E2H3K4M6N7P8L`],
		["an O", `01JMRZ8X1Q9V5E2H3K4M6N7P8O`],
		["a U", `01JMRZ8X1Q9V5E2H3K4M6N7P8U`],
		["25 characters", valid.slice(1)],
		["27 characters", `${valid}0`],
		["the empty string", ""],
		["path traversal", "../../../../etc/passwd"],
		["traversal of the right length", "../01JMRZ8X1Q9V5E2H3K4M6N7"],
		["a slash", "01JMRZ8X1Q9V5E2H3K4M6N7P/R"],
		["a NUL byte", "01JMRZ8X1Q9V5E2H3K4M6N7P8\u0000"],
		["a trailing newline", `${valid.slice(1)}\n`],
		["a fullwidth digit (look-alike Unicode)", "０1JMRZ8X1Q9V5E2H3K4M6N7P8R"],
		["a Cyrillic А (look-alike Unicode)", "01JMRZ8X1Q9V5E2H3K4M6N7P8\u0410"],
		["a Greek Ο (look-alike Unicode)", "01JMRZ8X1Q9V5E2H3K4M6N7P8\u039f"],
	])("rejects %s", (_what, value) => {
		expect(isSessionId(value)).toBe(false);
		expect(() => assertSessionId(value)).toThrow(InvalidSessionIdError);
	});

	it.each([
		["a number", 42],
		["null", null],
		["undefined", undefined],
	])("rejects %s", (_what, value) => {
		expect(isSessionId(value)).toBe(false);
	});

	it("throws INVALID_SESSION_ID with an actionable message that does not echo a huge input", () => {
		try {
			assertSessionId("x".repeat(10_000));
			expect.unreachable("assertSessionId should have thrown");
		} catch (error) {
			expect(isAgentSessionError(error, "INVALID_SESSION_ID")).toBe(true);
			const message = (error as Error).message;
			expect(message).toMatch(/^@agent\/session-format: /);
			expect(message).toContain("26-character ULIDs");
			expect(message.length).toBeLessThan(300);
		}
	});

	it("sessionIdTime validates its input", () => {
		expect(() => sessionIdTime("../x")).toThrow(InvalidSessionIdError);
	});
});
