import { Command } from "commander";
import { integerOption, SESSION_ID_HELP } from "../args.js";
import type { CliContext } from "../cli-context.js";

export function registerLabel(ctx: CliContext): Command {
	return new Command("label")
		.description('label a record (e.g. a point to come back to); an empty text ("") clears its label')
		.argument("<id>", SESSION_ID_HELP)
		.argument("<seq>", "the record to label", integerOption(1))
		.argument("<text>", "the label")
		.option("--json", "print the session's metadata")
		.action(async (rawId: string, seq: number, text: string, flags: { json?: boolean }) => {
			const id = await ctx.sessionId(rawId);
			const metadata = await (await ctx.sessions()).label(id, seq, text);
			if (flags.json) await ctx.out.json(metadata);
			else
				await ctx.out.line(
					text === "" ? `${id}: #${seq} unlabelled` : `${id}: #${seq} labelled ${JSON.stringify(text)}`,
				);
		});
}
