import path from "node:path";
import type { ListOptions, SessionSource } from "@agent/session-format/reading";
import { Command, Option } from "commander";
import { integerOption } from "../args.js";
import type { CliContext } from "../cli-context.js";
import { withPager } from "../io/pager.js";
import { renderSessionTable } from "../render/sessions.js";
import { listSessions, listSessionsAsJson } from "../sessions-query.js";

interface ListFlags {
	all?: boolean;
	search?: string;
	source?: SessionSource;
	cwd?: string;
	limit?: number;
	identity?: string;
	json?: boolean;
}

export function registerList(ctx: CliContext): Command {
	return new Command("list")
		.description("list sessions, newest activity first")
		.option("--all", "include archived sessions")
		.option("--search <text>", "only sessions whose name or id contains this text (case-insensitive)")
		.addOption(new Option("--source <source>", "only sessions started this way").choices(["interactive", "cron"]))
		.option("--identity <key>", "only sessions of this identity key (see `create --identity`)")
		.option("--cwd <dir>", "only sessions that record this working directory (a project)")
		.option("--limit <n>", "at most this many sessions", integerOption(1))
		.option("--json", "print an array of session metadata (every match unless --limit is given)")
		.action(async (flags: ListFlags) => {
			const options: ListOptions = { archived: flags.all === true };
			if (flags.search !== undefined) options.search = flags.search;
			if (flags.source !== undefined) options.source = flags.source;
			if (flags.cwd !== undefined) options.cwd = path.resolve(flags.cwd);
			if (flags.limit !== undefined) options.limit = flags.limit;
			if (flags.identity !== undefined) options.identityKey = flags.identity;
			const store = await ctx.readStore();
			// Piped, --json is one line of the sessions' JSON: the text the store keeps, when it keeps it.
			const json = flags.json && !ctx.out.stdout.isTTY ? listSessionsAsJson(store, options) : undefined;
			if (json) return ctx.out.jsonArrayOf(await json);
			const sessions = await listSessions(store, options);
			if (flags.json) return ctx.out.json(sessions);
			if (sessions.length === 0) {
				ctx.out.note(flags.all ? "No sessions." : "No sessions (archived ones are hidden; add --all).");
				return;
			}
			const lines = renderSessionTable(sessions, ctx.out.paint);
			await withPager(ctx.out, ctx.io.env, async () => {
				for (const line of lines) await ctx.out.line(line);
			});
		});
}
