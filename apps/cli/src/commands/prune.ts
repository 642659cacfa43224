import { Command } from "commander";
import type { CliContext } from "../cli-context.js";
import { ReportedFailure, UsageError } from "../errors.js";

interface PruneFlags {
	archivedOlderThan: string;
	dryRun?: boolean;
	json?: boolean;
}

export function registerPrune(ctx: CliContext): Command {
	return new Command("prune")
		.description(
			"delete, for good, the sessions archived longer ago than an age (the archive time is the log's); --dry-run lists them and deletes nothing",
		)
		.requiredOption(
			"--archived-older-than <age>",
			"a whole number and a unit (s, m, h, d, w): 90d deletes the sessions archived more than 90 days ago",
		)
		.option("--dry-run", "list what would be deleted; delete nothing")
		.option(
			"--json",
			"print { cutoff, dryRun, sessions: [{ id, name?, archivedAt, lastMessageAt, messageCount }], failed: [{ id, message }] }",
		)
		.action(async (flags: PruneFlags) => {
			const { parseDuration, pruneArchived } = await import("@agent/session");
			let olderThanMs: number;
			try {
				olderThanMs = parseDuration(flags.archivedOlderThan, "--archived-older-than");
			} catch (error) {
				throw new UsageError((error as Error).message.replace(/^@agent\/session: /, ""));
			}
			const sessions = await ctx.sessions();
			const report = await pruneArchived(sessions.store, {
				olderThanMs,
				dryRun: flags.dryRun === true,
				remove: (id) => sessions.delete(id),
			});
			if (flags.json) await ctx.out.json(report);
			else {
				const verb = report.dryRun ? "would delete" : "deleted";
				for (const session of report.sessions) {
					await ctx.out.line(
						`${session.id}  ${verb}  archived ${session.archivedAt}  ${session.messageCount} message(s)${session.name ? `  ${session.name}` : ""}`,
					);
				}
				for (const failed of report.failed) ctx.out.note(`${failed.id}: NOT DELETED: ${failed.message}`);
				ctx.out.note(
					`${report.sessions.length} session(s) archived before ${report.cutoff} ${report.dryRun ? "would be deleted (--dry-run: nothing was deleted)" : "deleted"}.`,
				);
			}
			if (report.failed.length > 0) throw new ReportedFailure(`prune left ${report.failed.length} session(s)`);
		});
}
