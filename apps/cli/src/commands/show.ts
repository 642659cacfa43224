import { type RecordProblem, type SessionStore, SessionTree, type StoredRecord } from "@agent/session-format/reading";
import { Command } from "commander";
import { integerOption, SESSION_ID_HELP } from "../args.js";
import type { CliContext } from "../cli-context.js";
import { UsageError } from "../errors.js";
import { withPager } from "../io/pager.js";
import { problemWarning, recordJson } from "../render/json-records.js";
import { renderRecord } from "../render/records.js";
import { renderMetadata } from "../render/sessions.js";
import { renderTree } from "../render/tree.js";
import { newestSessionId } from "../session-ids.js";

interface ShowFlags {
	json?: boolean;
	tree?: boolean;
	from?: number;
	to?: number;
	last?: number;
}

export function registerShow(ctx: CliContext): Command {
	return new Command("show")
		.description("print a session's records; --tree draws its branches, labels and compactions")
		.argument("[id]", `${SESSION_ID_HELP} (with --last N: default the newest session)`)
		.option("--tree", "draw the tree of records instead of listing them")
		.option("--from <seq>", "only records from this seq on", integerOption(1))
		.option("--to <seq>", "only records up to this seq", integerOption(1))
		.option("--last <n>", "only the last n records", integerOption(1))
		.option("--json", "print an array of records (with --tree: the tree's nodes)")
		.action(async (rawId: string | undefined, flags: ShowFlags) => {
			const ranged = flags.from !== undefined || flags.to !== undefined || flags.last !== undefined;
			if (flags.tree && ranged) throw new UsageError("--tree draws the whole tree; leave out --from, --to and --last");
			if (flags.last !== undefined && (flags.from !== undefined || flags.to !== undefined)) {
				throw new UsageError("give either --last or --from/--to, not both");
			}
			if (rawId === undefined && flags.last === undefined) {
				throw new UsageError("missing the session id (or --last for the newest session)");
			}
			const store = await ctx.readStore();
			const id = rawId === undefined ? await newestSessionId(store) : await ctx.sessionId(rawId);
			const metadata = await store.metadata(id);
			const onProblem = (problem: RecordProblem) => ctx.out.note(problemWarning(problem));
			const records = recordsInRange(store, id, flags, onProblem);
			if (flags.tree) {
				const tree = new SessionTree();
				for await (const record of records) tree.add(record);
				const leafSeq = tree.activeLeaf(metadata.leafSeq);
				if (flags.json) return ctx.out.json(treeJson(id, tree, leafSeq));
				return withPager(ctx.out, ctx.io.env, async () => {
					for (const line of renderMetadata(metadata, ctx.out.paint)) await ctx.out.line(line);
					await ctx.out.line();
					if (tree.size === 0) return ctx.out.line(ctx.out.paint("dim", "(no records)"));
					for (const line of renderTree({ tree, leafSeq, paint: ctx.out.paint })) await ctx.out.line(line);
				});
			}
			if (flags.json) return writeJsonArray(ctx, records);
			return withPager(ctx.out, ctx.io.env, async () => {
				for (const line of renderMetadata(metadata, ctx.out.paint)) await ctx.out.line(line);
				let count = 0;
				for await (const record of records) {
					await ctx.out.line();
					await ctx.out.line(renderRecord(record, ctx.out.paint));
					count++;
				}
				if (count === 0) await ctx.out.line(`\n${ctx.out.paint("dim", "(no records)")}`);
			});
		});
}

/** The records the flags ask for: all, --from/--to (read from --from on), or the last N (read from the end). */
async function* recordsInRange(
	store: SessionStore,
	id: string,
	flags: ShowFlags,
	onProblem: (problem: RecordProblem) => void,
): AsyncIterable<StoredRecord> {
	if (flags.last !== undefined) {
		yield* await store.tail(id, flags.last, { onProblem });
		return;
	}
	const records =
		flags.from === undefined ? store.read(id, { onProblem }) : store.readFrom(id, flags.from, { onProblem });
	for await (const record of records) {
		if (flags.to !== undefined && record.seq > flags.to) return;
		yield record;
	}
}

/** Streams a JSON array of records, one per line, without holding the session in memory. */
async function writeJsonArray(ctx: CliContext, records: AsyncIterable<StoredRecord>): Promise<void> {
	let first = true;
	for await (const record of records) {
		await ctx.out.write(`${first ? "[\n" : ",\n"}  ${JSON.stringify(recordJson(record))}`);
		first = false;
	}
	await ctx.out.write(first ? "[]\n" : "\n]\n");
}

/** The tree as --json prints it: flat nodes (a deep tree must not nest deeply in JSON). */
function treeJson(sessionId: string, tree: SessionTree, leafSeq: number | null) {
	const activePath = new Set(leafSeq === null ? [] : tree.path(leafSeq).map((record) => record.seq));
	const labels = tree.labels();
	return {
		sessionId,
		leafSeq,
		nodes: tree.records().map((record) => ({
			seq: record.seq,
			parentSeq: tree.parentOf(record.seq),
			children: [...tree.children(record.seq)],
			recordType: record.recordType === "opaque" ? record.declaredType : record.recordType,
			...(record.recordType === "message" ? { role: record.role } : {}),
			label: labels.get(record.seq) ?? null,
			onActivePath: activePath.has(record.seq),
		})),
	};
}
