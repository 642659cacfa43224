import type { CreateSessionOptions, SessionSource } from "@agent/session-format";
import { Command, Option } from "commander";
import type { CliContext } from "../cli-context.js";
import { UsageError } from "../errors.js";
import { checkModel } from "../model-option.js";

interface CreateFlags {
	name?: string;
	model?: string;
	source?: SessionSource;
	cronJob?: string;
	systemPrompt?: string;
	json?: boolean;
}

export function registerCreate(ctx: CliContext): Command {
	return new Command("create")
		.description("create an empty session and print its id")
		.option("--name <name>", "a name for the session")
		.option(
			"--model <model>",
			'the model it uses: "provider/model-id" or "demo" (default: config.yaml\'s default_model)',
		)
		.addOption(new Option("--source <source>", "what started it").choices(["interactive", "cron"]))
		.option("--cron-job <id>", "the scheduled job that started it (implies --source cron)")
		.option("--system-prompt <text>", "per-session instructions sent as the system prompt")
		.option("--json", "print the new session's metadata as JSON")
		.action(async (flags: CreateFlags) => {
			if (flags.cronJob !== undefined && flags.source === "interactive") {
				throw new UsageError(
					"--cron-job marks a session started by a scheduled job; drop --source interactive or --cron-job",
				);
			}
			// Check the model name now rather than at the first turn; resolving it needs no network.
			if (flags.model !== undefined) await checkModel(flags.model);
			const options: CreateSessionOptions = {};
			if (flags.name !== undefined) options.name = flags.name;
			if (flags.model !== undefined) options.model = flags.model;
			if (flags.cronJob !== undefined) {
				options.source = "cron";
				options.cronJobId = flags.cronJob;
			} else if (flags.source !== undefined) options.source = flags.source;
			if (flags.systemPrompt !== undefined) options.systemPromptOverride = flags.systemPrompt;
			const metadata = await (await ctx.sessions()).create(options);
			if (flags.json) await ctx.out.json(metadata);
			else await ctx.out.line(metadata.id);
		});
}
