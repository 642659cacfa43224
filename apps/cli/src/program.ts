import { Command, InvalidArgumentError, Option } from "commander";
import type { CliContext } from "./cli-context.js";
import { registerAppend } from "./commands/append.js";
import { registerArchive, registerUnarchive } from "./commands/archive.js";
import { registerBranch } from "./commands/branch.js";
import { registerChat } from "./commands/chat.js";
import { registerCompact } from "./commands/compact.js";
import { registerContext } from "./commands/context.js";
import { registerCreate } from "./commands/create.js";
import { registerDelete } from "./commands/delete.js";
import { registerExport } from "./commands/export.js";
import { registerFork } from "./commands/fork.js";
import { registerImport } from "./commands/import.js";
import { registerLabel } from "./commands/label.js";
import { registerList } from "./commands/list.js";
import { registerMigrate } from "./commands/migrate.js";
import { registerName } from "./commands/name.js";
import { registerSend } from "./commands/send.js";
import { registerShow } from "./commands/show.js";
import { registerStats } from "./commands/stats.js";
import { registerTail } from "./commands/tail.js";
import { registerTools } from "./commands/tools.js";
import { registerTurns } from "./commands/turns.js";
import { registerVerify } from "./commands/verify.js";
import { CLI_VERSION } from "./version.js";

/** The `agent-sessions` command line: global options and every command. */
export function buildProgram(ctx: CliContext): Command {
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

	for (const register of [
		registerCreate,
		registerAppend,
		registerList,
		registerShow,
		registerTail,
		registerContext,
		registerCompact,
		registerFork,
		registerBranch,
		registerName,
		registerLabel,
		registerArchive,
		registerUnarchive,
		registerDelete,
		registerVerify,
		registerStats,
		registerSend,
		registerChat,
		registerImport,
		registerExport,
		registerTools,
		registerTurns,
		registerMigrate,
	]) {
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
		outputError: (text: string, write: (text: string) => void) =>
			write(`${ctx.out.paintErr("red", `${text.trimEnd()} (see \`${commandLine} --help\`)`)}\n`),
	};
}
