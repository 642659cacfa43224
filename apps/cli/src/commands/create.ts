import type { AgentSessions } from "@agent/session";
import type { CreateSessionOptions, SessionSource } from "@agent/session-format/reading";
import { Command, Option } from "commander";
import type { CliContext } from "../cli-context.js";
import { UsageError } from "../errors.js";
import { checkModel } from "../model-option.js";
import { streamTurn } from "../stream-turn.js";

interface CreateFlags {
	name?: string;
	model?: string;
	source?: SessionSource;
	cronJob?: string;
	systemPrompt?: string;
	identity?: string;
	deferred?: boolean;
	send?: string;
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
		.option("--identity <key>", "tag it with an identity key (channel + user, agent + sender); see `send --identity`")
		.option("--deferred", "write nothing until the first reply; with --send, a failed first turn leaves nothing behind")
		.option("--send <text>", "send this first message at once and print the reply after the id")
		.option("--json", "print the new session's metadata as JSON")
		.action(async (flags: CreateFlags) => {
			if (flags.cronJob !== undefined && flags.source === "interactive") {
				throw new UsageError(
					"--cron-job marks a session started by a scheduled job; drop --source interactive or --cron-job",
				);
			}
			if (flags.deferred && flags.send === undefined) {
				throw new UsageError(
					"a deferred session is written only when its first reply comes, and this command ends right after creating it: give the first message with --send TEXT (or run `chat` without an id)",
				);
			}
			if (flags.identity !== undefined && flags.identity.trim() === "") {
				throw new UsageError("--identity cannot be empty; give the identity key");
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
			if (flags.identity !== undefined) options.identityKey = flags.identity;
			if (flags.deferred) options.deferred = true;
			const sessions = await ctx.sessions();
			const metadata = await sessions.create(options);
			if (flags.send === undefined) {
				if (flags.json) await ctx.out.json(metadata);
				else await ctx.out.line(metadata.id);
				return;
			}
			await sendFirst(ctx, sessions, metadata.id, flags.send, flags.json === true);
		});
}

/** --send: the first turn, streamed after the id (or as { session, turn } with --json). */
async function sendFirst(
	ctx: CliContext,
	sessions: AgentSessions,
	id: string,
	text: string,
	json: boolean,
): Promise<void> {
	if (text.trim() === "") throw new UsageError("--send needs some text");
	if (!json) await ctx.out.line(id);
	const stop = new AbortController();
	const onSignal = () => stop.abort();
	process.once("SIGINT", onSignal);
	try {
		const turn = await streamTurn(ctx, sessions, id, text, { signal: stop.signal, print: !json });
		if (json) await ctx.out.json({ session: await sessions.metadata(id), turn });
	} finally {
		process.off("SIGINT", onSignal);
	}
}
