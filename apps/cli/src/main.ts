import { CommanderError } from "commander";
import { CliContext } from "./cli-context.js";
import { debugDetails, EXIT_FAILURE, EXIT_OK, EXIT_USAGE, errorLine, exitCodeFor, ReportedFailure } from "./errors.js";
import { buildProgram } from "./program.js";

/** Runs the CLI on `argv` (as process.argv: node, script, args...) and resolves with the exit code. */
export async function main(argv: readonly string[], io: CliContext["io"]): Promise<number> {
	const ctx = new CliContext(io);
	const program = buildProgram(ctx);
	const debug = argv.includes("--debug");
	try {
		await program.parseAsync(argv as string[]);
		return EXIT_OK;
	} catch (error) {
		if (error instanceof CommanderError) return commanderExitCode(error);
		if (error instanceof ReportedFailure) return error.exitCode;
		io.stderr.write(`${ctx.out.paintErr("red", errorLine(error))}\n`);
		if (debug) io.stderr.write(`${debugDetails(error)}\n`);
		return exitCodeFor(error);
	}
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
