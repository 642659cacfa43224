import type { SessionStore, VerifyReport } from "@agent/session-format";
import { Command } from "commander";
import { sessionIdArgument } from "../args.js";
import type { CliContext } from "../cli-context.js";
import { ReportedFailure } from "../errors.js";
import { startProgress } from "../io/progress.js";
import { renderVerifyReport } from "../render/verify.js";
import { listSessions } from "../sessions-query.js";

interface VerifyFlags {
	repair?: boolean;
	json?: boolean;
}

export function registerVerify(ctx: CliContext): Command {
	return new Command("verify")
		.description(
			"check one session or all of them: every problem with its line and byte offset; exits 1 when a problem remains",
		)
		.argument("[id]", "session id (default: every session, archived ones included)")
		.option("--repair", "rebuild the metadata of sessions with problems from their logs (logs are never rewritten)")
		.option("--json", "print an array of reports { sessionId, ok, problems, records, bytes, repaired? }")
		.action(async (rawId: string | undefined, flags: VerifyFlags) => {
			const store = await ctx.store();
			let reports = rawId === undefined ? await verifyAll(ctx, store) : await store.verify(sessionIdArgument(rawId));
			if (flags.repair) {
				reports = await Promise.all(reports.map((report) => (report.ok ? report : store.repair(report.sessionId))));
			}
			if (flags.json) await ctx.out.json(reports);
			else {
				for (const report of reports)
					for (const line of renderVerifyReport(report, ctx.out.paint)) await ctx.out.line(line);
				const failed = reports.filter((report) => !report.ok).length;
				ctx.out.note(
					failed === 0
						? `${reports.length} session(s) verified, no problems.`
						: `${failed} of ${reports.length} session(s) have problems${flags.repair ? " left after repair (the log itself is never rewritten)" : "; `verify --repair` rebuilds their metadata"}.`,
				);
			}
			if (reports.some((report) => !report.ok)) throw new ReportedFailure("verify found problems");
		});
}

/** Verifies every session one by one, with a progress bar on a terminal. */
async function verifyAll(ctx: CliContext, store: SessionStore): Promise<VerifyReport[]> {
	const sessions = await listSessions(store, { archived: true });
	const progress = startProgress(ctx.io.stderr, "verify", sessions.length);
	const reports: VerifyReport[] = [];
	try {
		for (const session of sessions) {
			reports.push(...(await store.verify(session.id)));
			progress.increment(session.id);
		}
	} finally {
		progress.stop();
	}
	return reports;
}
