import type { StoredRecord } from "@agent/session-format/reading";
import { Command } from "commander";
import { integerOption, SESSION_ID_HELP } from "../args.js";
import type { CliContext } from "../cli-context.js";
import { followRecords } from "../follow.js";
import { problemWarning, recordJson } from "../render/json-records.js";
import { renderRecord } from "../render/records.js";

interface TailFlags {
	lines: number;
	follow?: boolean;
	json?: boolean;
}

export function registerTail(ctx: CliContext): Command {
	return new Command("tail")
		.description("print the last records of a session; -f keeps printing records as they are appended")
		.argument("<id>", SESSION_ID_HELP)
		.option("-n, --lines <n>", "how many records", integerOption(0), 10)
		.option("-f, --follow", "keep running and print records appended later (Ctrl-C stops)")
		.option("--json", "print each record as one JSON line (JSON Lines)")
		.action(async (rawId: string, flags: TailFlags) => {
			const id = await ctx.sessionId(rawId);
			const store = await ctx.readStore();
			const onProblem = (problem: Parameters<typeof problemWarning>[0]) => ctx.out.note(problemWarning(problem));
			const print = (record: StoredRecord) =>
				flags.json ? ctx.out.jsonLine(recordJson(record)) : ctx.out.line(renderRecord(record, ctx.out.paint));
			const metadata = await store.metadata(id);
			const last = flags.lines > 0 ? await store.tail(id, flags.lines, { onProblem }) : [];
			for (const record of last) await print(record);
			if (!flags.follow) return;

			const stop = new AbortController();
			const onSignal = () => stop.abort();
			process.once("SIGINT", onSignal);
			process.once("SIGTERM", onSignal);
			try {
				const after = Math.max(metadata.lastSeq, last.at(-1)?.seq ?? 0);
				for await (const record of followRecords(store, id, after, { signal: stop.signal, onProblem })) {
					await print(record);
				}
			} finally {
				process.off("SIGINT", onSignal);
				process.off("SIGTERM", onSignal);
			}
		});
}
