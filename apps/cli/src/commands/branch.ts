import { Command } from "commander";
import { integerOption, SESSION_ID_HELP } from "../args.js";
import type { CliContext } from "../cli-context.js";
import { checkModel } from "../model-option.js";

interface BranchFlags {
	at: number;
	summarize?: boolean;
	model?: string;
	json?: boolean;
}

export function registerBranch(ctx: CliContext): Command {
	return new Command("branch")
		.description("move a session's active leaf to an earlier record: the next message continues from there")
		.argument("<id>", SESSION_ID_HELP)
		.requiredOption("--at <seq>", "the record to continue from", integerOption(1))
		.option("--summarize", "summarize the branch being left into a branch_summary the context then carries")
		.option("--model <model>", "the summarizer for --summarize (default: compaction_model, else the session's)")
		.option("--json", "print the session's metadata")
		.action(async (rawId: string, flags: BranchFlags) => {
			const id = await ctx.sessionId(rawId);
			if (flags.model !== undefined) await checkModel(flags.model);
			const metadata = await (await ctx.sessions()).branch(id, flags.at, {
				summarize: flags.summarize === true,
				...(flags.model !== undefined ? { model: flags.model } : {}),
			});
			if (flags.json) await ctx.out.json(metadata);
			else
				await ctx.out.line(
					`${id}: the active leaf is now #${metadata.leafSeq ?? metadata.lastSeq}${flags.summarize ? " (a summary of the branch left)" : ""}`,
				);
		});
}
