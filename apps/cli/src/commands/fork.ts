import { Command } from "commander";
import { integerOption, SESSION_ID_HELP } from "../args.js";
import type { CliContext } from "../cli-context.js";

interface ForkFlags {
	at?: number;
	name?: string;
	json?: boolean;
}

export function registerFork(ctx: CliContext): Command {
	return new Command("fork")
		.description("copy a session's path (up to a record) into a new session and print the new id")
		.argument("<id>", SESSION_ID_HELP)
		.option("--at <seq>", "fork the path up to this record (default: the active leaf)", integerOption(1))
		.option("--name <name>", "a name for the new session")
		.option("--json", "print the new session's metadata")
		.action(async (rawId: string, flags: ForkFlags) => {
			const id = await ctx.sessionId(rawId);
			const sessions = await ctx.sessions();
			const metadata = await sessions.fork(id, {
				...(flags.at !== undefined ? { atSeq: flags.at } : {}),
				...(flags.name !== undefined ? { name: flags.name } : {}),
			});
			if (flags.json) await ctx.out.json(metadata);
			else await ctx.out.line(metadata.id);
		});
}
