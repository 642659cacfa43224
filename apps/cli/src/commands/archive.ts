import { Command } from "commander";
import { SESSION_ID_HELP } from "../args.js";
import type { CliContext } from "../cli-context.js";

export function registerArchive(ctx: CliContext): Command {
	return new Command("archive")
		.description("archive a session: hidden from `list` (see `list --all`), kept on disk")
		.argument("<id>", SESSION_ID_HELP)
		.option("--json", "print the session's metadata")
		.action(async (rawId: string, flags: { json?: boolean }) => {
			const id = await ctx.sessionId(rawId);
			const metadata = await (await ctx.sessions()).archive(id);
			if (flags.json) await ctx.out.json(metadata);
			else await ctx.out.line(`${id}: archived`);
		});
}

export function registerUnarchive(ctx: CliContext): Command {
	return new Command("unarchive")
		.description("bring an archived session back into `list`")
		.argument("<id>", SESSION_ID_HELP)
		.option("--json", "print the session's metadata")
		.action(async (rawId: string, flags: { json?: boolean }) => {
			const id = await ctx.sessionId(rawId);
			const metadata = await (await ctx.sessions()).unarchive(id);
			if (flags.json) await ctx.out.json(metadata);
			else await ctx.out.line(`${id}: unarchived`);
		});
}
