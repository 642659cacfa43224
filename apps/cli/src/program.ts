import { Command, InvalidArgumentError, Option } from "commander";
import { scanArgs } from "./argv-scan.js";
import type { CliContext } from "./cli-context.js";
import { COMMANDS, type RegisterCommand } from "./commands/registry.js";
import { CLI_VERSION } from "./version.js";

/**
 * The `agent-sessions` command line: global options and the commands. Given the arguments, only
 * the command they name is loaded (see commands/registry.ts); without, or when they name none,
 * every command is.
 */
export async function buildProgram(ctx: CliContext, args?: readonly string[]): Promise<Command> {
	ctx.setProgramBuilder(() => buildProgram(ctx));
	const program = new Command("agent-sessions")
		.description("Inspect, repair and drive agent sessions stored as append-only JSONL logs.")
		.version(CLI_VERSION, "-V, --version")
		.addOption(
			new Option("--home <dir>", "the store's home directory (default: $AGENT_HOME, else ~/.agent)").argParser(
				nonEmptyHome,
			),
		)
		.addOption(
			new Option(
				"--store <url>",
				"where sessions live: postgres://user@host/db, file:///path or a directory (default: $AGENT_STORE, else config.yaml's store:, else the home)",
			).argParser(nonEmptyHome),
		)
		.option("--debug", "print stack traces with errors")
		.showSuggestionAfterError(true)
		.configureHelp({ showGlobalOptions: true, sortSubcommands: false })
		.configureOutput(outputFor(ctx, "agent-sessions"))
		.exitOverride()
		.hook("preAction", () => {
			ctx.setHome(program.opts<{ home?: string }>().home);
			ctx.setStore(program.opts<{ store?: string }>().store);
		});

	const named = args === undefined ? undefined : scanArgs(args).command;
	const names = named === undefined ? Object.keys(COMMANDS) : [named];
	const registers = await Promise.all(names.map((name) => (COMMANDS[name] as () => Promise<RegisterCommand>)()));
	for (const register of registers) {
		const command = register(ctx);
		// Subcommands inherit the output settings and report errors the same way.
		command
			.exitOverride()
			.configureOutput(outputFor(ctx, `agent-sessions ${command.name()}`))
			.showSuggestionAfterError(true);
		program.addCommand(command);
	}
	return program;
}

/** An empty --home would silently mean ~/.agent (not even $AGENT_HOME): never what `--home "$UNSET"` meant. */
function nonEmptyHome(value: string): string {
	if (value.trim().length === 0) {
		throw new InvalidArgumentError(
			"cannot be empty; give the store's directory, or leave --home out to use $AGENT_HOME",
		);
	}
	return value;
}

/** Commander's output: help to stdout, its one-line errors to stderr with where to look for help. */
function outputFor(ctx: CliContext, commandLine: string) {
	return {
		writeOut: (text: string) => void ctx.io.stdout.write(text),
		writeErr: (text: string) => void ctx.io.stderr.write(text),
		outputError: (text: string, write: (text: string) => void) => {
			const message = `${text.trim().replace(/^error: /, "")} (see \`${commandLine} --help\`)`;
			if (ctx.jsonErrors) write(`${JSON.stringify({ error: { code: "USAGE", message } })}\n`);
			else write(`${ctx.out.paintErr("red", `error: ${message}`)}\n`);
		},
	};
}
