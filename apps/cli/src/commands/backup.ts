import { Command } from "commander";
import type { CliContext } from "../cli-context.js";
import { ReportedFailure, UsageError } from "../errors.js";
import { startProgress } from "../io/progress.js";
import { formatBytes } from "../render/format.js";

interface BackupFlags {
	to: string;
	json?: boolean;
}

export function registerBackup(ctx: CliContext): Command {
	return new Command("backup")
		.description(
			"copy a live file store (every session, config.yaml) to a new directory while writers go on: each log up to its last whole record, metadata rebuilt from it, so `verify` passes on the copy; for PostgreSQL use pg_dump",
		)
		.requiredOption("--to <dir>", "where the copy goes: a directory that does not exist yet, or an empty one")
		.option(
			"--json",
			"print { from, to, startedAt, finishedAt, files, skipped, sessions: [{ sessionId, bytes, records, tailLeftOut, acceptedTurns, problems, ok }], deleted, failed, withProblems, bytes }",
		)
		.action(async (flags: BackupFlags) => {
			const location = await ctx.storeLocation();
			if (location.kind === "postgres") {
				throw new UsageError(
					"backup copies a file store; this store is PostgreSQL. Back it up with pg_dump (pg_dump -Fc -f agent.dump DATABASE_URL, a consistent snapshot of every session; restore with pg_restore, then `agent-sessions verify`), or copy its sessions into a file store with `agent-sessions migrate --from DATABASE_URL --to DIR` (see docs/operations.md)",
				);
			}
			const { backupFileStore } = await import("@agent/session-fs/backup");
			const progress = startProgress(ctx.io.stderr, "backup", 0);
			let report: Awaited<ReturnType<typeof backupFileStore>>;
			try {
				report = await backupFileStore({
					from: location.home,
					to: flags.to,
					onSession: ({ index, total, sessionId }) => progress.update(index, total, sessionId),
				});
			} finally {
				progress.stop();
			}
			if (flags.json) await ctx.out.json(report);
			else {
				for (const copy of report.sessions.filter((session) => !session.ok)) {
					ctx.out.note(
						`${copy.sessionId}: copied as it is, with problems of its own: ${copy.problems.map((problem) => problem.message).join("; ")}`,
					);
				}
				for (const failed of report.failed) ctx.out.note(`${failed.sessionId}: NOT COPIED: ${failed.message}`);
				const files = report.files.length > 0 ? ` and ${report.files.join(", ")}` : "";
				await ctx.out.line(
					`${report.to}: ${report.sessions.length} session(s) (${formatBytes(report.bytes)})${files} from ${report.from}, every record acknowledged before ${report.startedAt}`,
				);
				if (report.deleted.length > 0)
					ctx.out.note(`${report.deleted.length} session(s) were deleted while the backup ran`);
			}
			const bad = report.withProblems + report.failed.length;
			if (bad > 0) {
				if (!flags.json) {
					ctx.out.note(
						`${bad} session(s) could not be copied clean (listed above); run \`agent-sessions verify\` on the store, and \`verify --repair\` to acknowledge damaged lines`,
					);
				}
				throw new ReportedFailure(`backup left ${bad} session(s) with problems`);
			}
		});
}
