import { Command } from "commander";
import { SESSION_ID_HELP } from "../args.js";
import type { CliContext } from "../cli-context.js";
import { UsageError } from "../errors.js";

export function registerName(ctx: CliContext): Command {
	return new Command("name")
		.description("name a session")
		.argument("<id>", SESSION_ID_HELP)
		.argument("<text>", "the new name")
		.option("--json", "print the session's metadata")
		.action(async (rawId: string, text: string, flags: { json?: boolean }) => {
			const id = await ctx.sessionId(rawId);
			if (text.trim() === "") throw new UsageError("a session name cannot be empty; give some text");
			const metadata = await (await ctx.sessions()).rename(id, text);
			if (flags.json) await ctx.out.json(metadata);
			else await ctx.out.line(`${id}: named ${JSON.stringify(metadata.name ?? text)}`);
		});
}
