import { Command } from "commander";
import { SESSION_ID_HELP } from "../args.js";
import type { CliContext } from "../cli-context.js";
import { UsageError } from "../errors.js";

export function registerDelete(ctx: CliContext): Command {
	return new Command("delete")
		.description("delete a session and its log for good (consider `archive`)")
		.argument("<id>", SESSION_ID_HELP)
		.option("--yes", "confirm: the session cannot be recovered")
		.option("--json", "print { id, deleted }")
		.action(async (rawId: string, flags: { yes?: boolean; json?: boolean }) => {
			const id = await ctx.sessionId(rawId);
			const sessions = await ctx.sessions();
			await sessions.metadata(id); // an unknown id fails the same way with or without --yes
			if (!flags.yes) {
				throw new UsageError(
					`delete removes session ${id} and its log for good; run again with --yes to confirm (or \`archive\` it to hide it)`,
				);
			}
			await sessions.delete(id);
			if (flags.json) await ctx.out.json({ id, deleted: true });
			else await ctx.out.line(`${id}: deleted`);
		});
}
