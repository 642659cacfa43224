import type { Command } from "commander";
import type { CliContext } from "../cli-context.js";

/** Defines one command (its options, arguments and action) on the context. */
export type RegisterCommand = (ctx: CliContext) => Command;

/**
 * Every command, in the order `--help` lists them, each loaded only when it runs: a run loads
 * the module of the one command it names (and what that module imports), never the others', so
 * `list` pays nothing for the LLM stack `send` needs. To add a command: a file in this folder
 * exporting a RegisterCommand, and one line here.
 */
export const COMMANDS: Readonly<Record<string, () => Promise<RegisterCommand>>> = {
	create: async () => (await import("./create.js")).registerCreate,
	append: async () => (await import("./append.js")).registerAppend,
	list: async () => (await import("./list.js")).registerList,
	pick: async () => (await import("./pick.js")).registerPick,
	search: async () => (await import("./search.js")).registerSearch,
	show: async () => (await import("./show.js")).registerShow,
	tail: async () => (await import("./tail.js")).registerTail,
	context: async () => (await import("./context.js")).registerContext,
	compact: async () => (await import("./compact.js")).registerCompact,
	fork: async () => (await import("./fork.js")).registerFork,
	branch: async () => (await import("./branch.js")).registerBranch,
	name: async () => (await import("./name.js")).registerName,
	label: async () => (await import("./label.js")).registerLabel,
	archive: async () => (await import("./archive.js")).registerArchive,
	unarchive: async () => (await import("./archive.js")).registerUnarchive,
	delete: async () => (await import("./delete.js")).registerDelete,
	verify: async () => (await import("./verify.js")).registerVerify,
	stats: async () => (await import("./stats.js")).registerStats,
	send: async () => (await import("./send.js")).registerSend,
	chat: async () => (await import("./chat.js")).registerChat,
	import: async () => (await import("./import.js")).registerImport,
	export: async () => (await import("./export.js")).registerExport,
	tools: async () => (await import("./tools.js")).registerTools,
	turns: async () => (await import("./turns.js")).registerTurns,
	migrate: async () => (await import("./migrate.js")).registerMigrate,
	backup: async () => (await import("./backup.js")).registerBackup,
	prune: async () => (await import("./prune.js")).registerPrune,
	completion: async () => (await import("./completion.js")).registerCompletion,
};
