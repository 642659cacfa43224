import os from "node:os";
import path from "node:path";
import type { ExportFormat, resumeHint } from "@agent/interop";
import type { SessionMetadata, SessionStore, StoredRecord } from "@agent/session-format/reading";
import { Command, Option } from "commander";
import { SESSION_ID_HELP } from "../args.js";
import type { CliContext } from "../cli-context.js";
import { resolveExportTarget, writeChunks, writeExport } from "../io/export-target.js";
import { type Progress, startProgress } from "../io/progress.js";

interface ExportFlags {
	format: ExportFormat;
	output?: string;
	force?: boolean;
}

export function registerExport(ctx: CliContext): Command {
	return new Command("export")
		.description(
			"export a session: a Markdown transcript, one self-contained HTML page, our JSONL, a pi v3 session file, or a Claude Code session file or Codex rollout to resume it there (its active branch's context)",
		)
		.argument("<id>", SESSION_ID_HELP)
		.addOption(
			new Option("--format <format>", "the output format")
				.choices(["md", "html", "jsonl", "pi", "claude", "codex"])
				.makeOptionMandatory(),
		)
		.option(
			"-o, --output <file>",
			"write to this file instead of stdout (a new file, or a FIFO or device such as /dev/stdout; never inside the store)",
		)
		.option("--force", "replace the --output file if it already exists")
		.action(async (rawId: string, flags: ExportFlags) => {
			const id = await ctx.sessionId(rawId);
			const store = await ctx.readStore();
			const { exportRecords, resumeHint, piSessionIdOf } = await import("@agent/interop");
			const metadata = await store.metadata(id);
			const target =
				flags.output === undefined
					? undefined
					: await resolveExportTarget(flags.output, {
							force: flags.force === true,
							storeHomes: await storeHomesOf(store, ctx.home),
						});
			// A bar only when the output does not go to the same terminal.
			const showProgress = flags.output !== undefined || ctx.io.stdout.isTTY !== true;
			const progress = showProgress ? startProgress(ctx.io.stderr, "export", metadata.lastSeq) : undefined;
			const chunks = exportRecords(() => counted(store.read(id), progress), metadata, flags.format);
			try {
				if (target === undefined) await writeChunks(chunks, ctx.io.stdout);
				else await writeExport(target, chunks, ctx.io);
			} finally {
				progress?.stop();
			}
			if (flags.output !== undefined) ctx.out.note(`${id} exported to ${flags.output} (${flags.format}).`);
			if (flags.format === "claude" || flags.format === "codex")
				ctx.out.note(resumeNote(flags.format, id, metadata, resumeHint, piSessionIdOf));
		});
}

/** The records, ticking the progress bar (an exporter may read them more than once: each pass restarts it). */
async function* counted(
	records: AsyncIterable<StoredRecord>,
	progress: Progress | undefined,
): AsyncGenerator<StoredRecord> {
	let read = 0;
	for await (const record of records) {
		progress?.update(++read);
		yield record;
	}
}

/** Where to put a Claude Code or Codex export and how to resume it (the agent's folder: $CLAUDE_CONFIG_DIR or ~/.claude, $CODEX_HOME or ~/.codex). */
function resumeNote(
	format: "claude" | "codex",
	id: string,
	metadata: SessionMetadata,
	hint: typeof resumeHint,
	sessionIdOf: (id: string) => string,
): string {
	const agentHome =
		format === "claude"
			? (process.env.CLAUDE_CONFIG_DIR ?? path.join(os.homedir(), ".claude"))
			: (process.env.CODEX_HOME ?? path.join(os.homedir(), ".codex"));
	return hint(format, {
		agentHome,
		cwd: metadata.cwd ?? process.cwd(),
		sessionId: sessionIdOf(id),
		createdAt: metadata.createdAt,
	});
}

/** The homes an export never writes into: the agent home (its config.yaml; --home, $AGENT_HOME, ~/.agent) and a file store's own. */
async function storeHomesOf(store: SessionStore, homeOption: string | undefined): Promise<string[]> {
	const { resolveHome } = await import("@agent/session-fs");
	const own = (store as { home?: unknown }).home;
	return [resolveHome(homeOption), ...(typeof own === "string" ? [own] : [])];
}
