import type { CliContext } from "./cli-context.js";
import { debugDetails, errorCode, errorLine, exitCodeFor } from "./errors.js";

/**
 * Prints an error the way the command line asked: one red line for people, or with --json one
 * JSON object on stderr (`{"error":{"code","message"}}`) for scripts; the exit code is the same.
 */
export function reportError(ctx: CliContext, error: unknown, options: { json: boolean; debug: boolean }): number {
	if (options.json) {
		const message = errorLine(error).replace(/^error: /, "");
		ctx.io.stderr.write(`${JSON.stringify({ error: { code: errorCode(error), message } })}\n`);
	} else {
		ctx.io.stderr.write(`${ctx.out.paintErr("red", errorLine(error))}\n`);
	}
	if (options.debug) ctx.io.stderr.write(`${debugDetails(error)}\n`);
	return exitCodeFor(error);
}
