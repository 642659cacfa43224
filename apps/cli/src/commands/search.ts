import path from "node:path";
import type { SearchHit, SearchOptions } from "@agent/session-format/reading";
import { Command } from "commander";
import { integerOption } from "../args.js";
import type { CliContext } from "../cli-context.js";
import { UsageError } from "../errors.js";
import type { Paint } from "../io/colors.js";
import { withPager } from "../io/pager.js";
import { shortTime } from "../render/format.js";

interface SearchFlags {
	all?: boolean;
	cwd?: string;
	limit?: number;
	json?: boolean;
}

export function registerSearch(ctx: CliContext): Command {
	return new Command("search")
		.description("find messages whose text contains TEXT (case-insensitive), in every session, newest first")
		.argument("<text>", "the text to look for (runs of spaces and line breaks match any whitespace)")
		.option("--all", "search archived sessions too")
		.option("--cwd <dir>", "only sessions that record this working directory")
		.option("--limit <n>", "at most this many matches", integerOption(1), 100)
		.option("--json", "print an array of { sessionId, sessionName, seq, role, timestamp, snippet }")
		.action(async (text: string, flags: SearchFlags) => {
			if (text.trim() === "") throw new UsageError("give the text to look for: agent-sessions search TEXT");
			const options: SearchOptions = { archived: flags.all === true };
			if (flags.cwd !== undefined) options.cwd = path.resolve(flags.cwd);
			if (flags.limit !== undefined) options.limit = flags.limit;
			// Ctrl+C stops the search where it runs (PostgreSQL cancels its statement), then exits.
			const stop = new AbortController();
			const onSignal = () => stop.abort();
			process.once("SIGINT", onSignal);
			let hits: SearchHit[];
			try {
				hits = await (await ctx.readStore()).search(text, { ...options, signal: stop.signal });
			} finally {
				process.off("SIGINT", onSignal);
			}
			if (flags.json) return ctx.out.json(hits);
			if (hits.length === 0) return ctx.out.note(`No message contains ${JSON.stringify(text)}.`);
			await withPager(ctx.out, ctx.io.env, async () => {
				for (const hit of hits) {
					await ctx.out.line(renderHitHeader(hit, ctx.out.paint));
					await ctx.out.line(`  ${highlight(hit.snippet, text, ctx.out.paint)}`);
				}
			});
		});
}

function renderHitHeader(hit: SearchHit, paint: Paint): string {
	const name = hit.sessionName ? ` ${hit.sessionName}` : "";
	return `${paint("bold", hit.sessionId)} ${paint("gray", `#${hit.seq} ${hit.role} ${shortTime(hit.timestamp)}`)}${name}`;
}

/** The snippet with its first match painted (whitespace in the query matches any run of it). */
function highlight(snippet: string, query: string, paint: Paint): string {
	const words = query.trim().split(/\s+/).map(escapeRegExp);
	const match = new RegExp(words.join("\\s+"), "i").exec(snippet);
	if (!match) return snippet;
	const end = match.index + match[0].length;
	return `${snippet.slice(0, match.index)}${paint("yellow", match[0])}${snippet.slice(end)}`;
}

function escapeRegExp(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
