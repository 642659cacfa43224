import { Command } from "commander";
import { choiceOption } from "../args.js";
import type { CliContext } from "../cli-context.js";
import { UsageError } from "../errors.js";
import { bashCompletion, type CompletionSpec, fishCompletion, zshCompletion } from "../render/completion.js";
import { listSessions } from "../sessions-query.js";
import { takesSession } from "../takes-session.js";

const SHELLS = ["bash", "zsh", "fish"] as const;
type Shell = (typeof SHELLS)[number];

export function registerCompletion(ctx: CliContext): Command {
	return new Command("completion")
		.description(
			"print a shell completion script (commands, options, session ids): `source <(agent-sessions completion bash)`",
		)
		.argument("[shell]", "bash, zsh or fish", choiceOption(SHELLS))
		.option("--ids", "print every session id and its name or first message, tab-separated (what the scripts call)")
		.action(async (shell: Shell | undefined, flags: { ids?: boolean }) => {
			if (flags.ids) {
				for (const session of await listSessions(await ctx.readStore(), {})) {
					await ctx.out.line(`${session.id}\t${(session.name ?? session.firstMessage ?? "").replace(/\s+/g, " ")}`);
				}
				return;
			}
			if (shell === undefined) throw new UsageError("name the shell: agent-sessions completion bash|zsh|fish");
			const spec = await completionSpec(ctx);
			const render = { bash: bashCompletion, zsh: zshCompletion, fish: fishCompletion }[shell];
			await ctx.out.write(render(spec));
		});
}

/** Every command's options, read from the commands themselves (all of them loaded, for once). */
async function completionSpec(ctx: CliContext): Promise<CompletionSpec> {
	const program = await ctx.wholeProgram();
	const flagsOf = (command: Command) =>
		command.options.flatMap((option) => [option.long, option.short].filter((flag): flag is string => !!flag));
	return {
		program: program.name(),
		globalOptions: [...flagsOf(program), "--help"],
		commands: program.commands.map((command) => ({
			name: command.name(),
			description: command.description(),
			options: [...flagsOf(command), ...(takesSession(command.name()) ? ["--last"] : [])],
			takesSession: takesSession(command.name()),
		})),
	};
}
