import { CommanderError } from "commander";
import { scanArgs } from "./argv-scan.js";
import { CliContext } from "./cli-context.js";
import { reportError } from "./error-report.js";
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, ReportedFailure } from "./errors.js";
import { lastSessionIndex } from "./last-option.js";
import { buildProgram } from "./program.js";

/** Runs the CLI on `argv` (as process.argv: node, script, args...) and resolves with the exit code. */
export async function main(argv: readonly string[], io: CliContext["io"]): Promise<number> {
	const ctx = new CliContext(io);
	const args = argv.slice(2);
	const json = args.includes("--json");
	ctx.jsonErrors = json;
	try {
		const scanned = scanArgs(args);
		const last = lastSessionIndex(args, scanned);
		if (last >= 0) {
			ctx.setHome(scanned.home);
			const { newestSessionId } = await import("./session-ids.js");
			args[last] = await newestSessionId(await ctx.readStore());
		}
		const program = await buildProgram(ctx, args);
		await program.parseAsync(args, { from: "user" });
		return EXIT_OK;
	} catch (error) {
		if (error instanceof CommanderError) return commanderExitCode(error);
		if (error instanceof ReportedFailure) return error.exitCode;
		if (outputClosed(error)) return EXIT_OK;
		return reportError(ctx, error, { json, debug: args.includes("--debug") });
	}
}

/** stdout's reader went away (`| head`): nothing more to print, which is not a failure. */
function outputClosed(error: unknown): boolean {
	const code = (error as NodeJS.ErrnoException | undefined)?.code;
	return code === "EPIPE" || code === "ERR_STREAM_DESTROYED";
}

/** Commander already printed its one-line message; map its outcome to our exit codes. */
function commanderExitCode(error: CommanderError): number {
	switch (error.code) {
		case "commander.helpDisplayed":
		case "commander.version":
			return EXIT_OK;
		case "commander.executeSubCommandAsync":
			return error.exitCode === 0 ? EXIT_OK : EXIT_FAILURE;
		default:
			return EXIT_USAGE;
	}
}
