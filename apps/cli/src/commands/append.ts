import { InvalidRecordError, type RecordInput, type SessionStore } from "@agent/session-format/reading";
import { Command } from "commander";
import { SESSION_ID_HELP, secondsOption } from "../args.js";
import type { CliContext } from "../cli-context.js";
import { type InputLine, lineBatches } from "../io/line-batches.js";

interface AppendFlags {
	wait: number;
	json?: boolean;
}

/** A line of input parsed into a record body, with where it came from. */
interface PendingRecord {
	line: number;
	body: RecordInput;
}

export function registerAppend(ctx: CliContext): Command {
	return new Command("append")
		.description(
			"append records read as JSONL from stdin (recordType and its fields; seq, schemaVersion and timestamp are filled in); prints each assigned seq once it is durable",
		)
		.argument("<id>", SESSION_ID_HELP)
		.option("--wait <seconds>", "how long to wait for another writer's lease", secondsOption, 30)
		.option("--json", "print each appended record as a JSON line instead of its seq")
		.action(async (rawId: string, flags: AppendFlags) => {
			const id = await ctx.sessionId(rawId);
			const store = await ctx.store();
			await store.metadata(id); // fail fast on an unknown session, even with empty input
			if (ctx.io.stdin.isTTY) ctx.out.note("Reading JSONL records from stdin; end with Ctrl-D.");
			const appender = new BatchAppender(ctx, store, id, Math.round(flags.wait * 1000), flags.json === true);
			for await (const batch of lineBatches(ctx.io.stdin)) await appender.appendLines(batch);
		});
}

class BatchAppender {
	private appended = 0;
	private lastSeq: number | undefined;

	constructor(
		private readonly ctx: CliContext,
		private readonly store: SessionStore,
		private readonly id: string,
		private readonly waitMs: number,
		private readonly json: boolean,
	) {}

	async appendLines(lines: readonly InputLine[]): Promise<void> {
		const pending: PendingRecord[] = [];
		for (const line of lines) {
			if (line.text.trim() === "") continue;
			const parsed = parseBody(line);
			if (typeof parsed === "string") {
				await this.write(pending);
				throw new InvalidRecordError(this.failure(line.number, parsed));
			}
			pending.push({ line: line.number, body: parsed });
		}
		try {
			await this.write(pending);
		} catch (error) {
			if (!(error instanceof InvalidRecordError) || error.index === undefined) throw error;
			// The store checks a whole batch before writing any of it: write the records before the bad one.
			const bad = pending[error.index] as PendingRecord;
			await this.write(pending.slice(0, error.index));
			throw new InvalidRecordError(this.failure(bad.line, stripPackage(error.message)), {
				path: error.path,
				cause: error,
			});
		}
	}

	private async write(records: readonly PendingRecord[]): Promise<void> {
		if (records.length === 0) return;
		const result = await this.store.append(
			this.id,
			records.map((record) => record.body),
			{ waitMs: this.waitMs },
		);
		for (const record of result.records) {
			this.appended++;
			this.lastSeq = record.seq;
			if (this.json) await this.ctx.out.jsonLine(record);
			else await this.ctx.out.line(String(record.seq));
		}
	}

	private failure(line: number, reason: string): string {
		const done =
			this.appended === 0
				? "nothing was appended"
				: `the ${this.appended} record(s) before it were appended (up to seq ${this.lastSeq})`;
		return `stdin line ${line}: ${reason}; ${done} and nothing from line ${line} on. Fix that line and append it and the rest again`;
	}
}

function parseBody(line: InputLine): RecordInput | string {
	let value: unknown;
	try {
		value = JSON.parse(line.text);
	} catch (error) {
		return `not valid JSON (${(error as Error).message})`;
	}
	if (typeof value !== "object" || value === null || Array.isArray(value)) {
		return 'expected one JSON object per line, such as {"recordType":"message","role":"user","content":[{"type":"text","text":"hi"}]}';
	}
	return value as RecordInput;
}

function stripPackage(message: string): string {
	return message.replace(/^@agent\/[a-z-]+: /, "").replace(/ \(record \d+ of the batch\)/, "");
}
