import { AgentSessionError, InvalidSessionIdError, SessionNotFoundError } from "@agent/session-format";
import { describe, expect, it } from "vitest";
import { EXIT_FAILURE, EXIT_USAGE, errorLine, exitCodeFor, ReportedFailure, UsageError } from "./errors.js";

describe("exit codes", () => {
	it("gives 2 for usage errors and invalid ids, 1 for other failures", () => {
		expect(exitCodeFor(new UsageError("x"))).toBe(EXIT_USAGE);
		expect(exitCodeFor(new InvalidSessionIdError("nope"))).toBe(EXIT_USAGE);
		expect(exitCodeFor(new SessionNotFoundError("01JMRZ8X1Q9V5E2H3K4M6N7P8R"))).toBe(EXIT_FAILURE);
		expect(exitCodeFor(new Error("boom"))).toBe(EXIT_FAILURE);
		expect(exitCodeFor(new ReportedFailure())).toBe(EXIT_FAILURE);
	});
});

describe("errorLine", () => {
	it("puts a multi-line message on one line", () => {
		expect(errorLine(new UsageError("first\n  second"))).toBe("error: first second");
	});

	it("joins lines around any whitespace, CRLF and blank lines included", () => {
		expect(errorLine(new UsageError("  first \r\n\n\t second  \n third"))).toBe("error: first second third");
	});

	it("stays linear on a long run of whitespace (the regex it replaces took 12 s on 100,000 spaces)", () => {
		const message = `${" ".repeat(1_000_000)}x${" \t".repeat(500_000)}!`;
		const line = errorLine(new UsageError(`${message}\n${message}`));
		// Compared as a boolean: a failing toBe would diff two megabyte strings.
		expect(line === `error: x${" \t".repeat(500_000)}! x${" \t".repeat(500_000)}!`).toBe(true);
	});

	it("speaks to operators: no package prefix, no spec section number", () => {
		const error = new AgentSessionError("INVALID_ARGUMENT", "@agent/session-fs: limit must be a whole number >= 1");
		expect(errorLine(error)).toBe("error: limit must be a whole number >= 1");
		expect(errorLine(new UsageError("@agent/session-format: content must be an array (S7.12); fix it"))).toBe(
			"error: content must be an array; fix it",
		);
	});

	it("points at --debug for errors that are not ours", () => {
		const error = Object.assign(new Error("permission denied"), { code: "EACCES" });
		expect(errorLine(error)).toBe("error: EACCES: permission denied (run again with --debug for the stack trace)");
	});
});
