import { Command } from "commander";
import { integerOption, sessionIdArgument } from "../args.js";
import type { CliContext } from "../cli-context.js";

interface BranchFlags {
	at: number;
	json?: boolean;
}

export function registerBranch(ctx: CliContext): Command {
	return new Command("branch")
		.description("move a session's active leaf to an earlier record: the next message continues from there")
		.argument("<id>", "session id")
		.requiredOption("--at <seq>", "the record to continue from", integerOption(1))
		.option("--json", "print the session's metadata")
		.action(async (rawId: string, flags: BranchFlags) => {
			const id = sessionIdArgument(rawId);
			const metadata = await (await ctx.sessions()).branch(id, flags.at);
			if (flags.json) await ctx.out.json(metadata);
			else await ctx.out.line(`${id}: the active leaf is now #${metadata.leafSeq ?? flags.at}`);
		});
}
