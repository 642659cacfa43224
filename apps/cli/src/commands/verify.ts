import type { SessionStore, VerifyProblem, VerifyReport } from "@agent/session-format/reading";
import { Command } from "commander";
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
		.option(
			"--repair",
			"rebuild the metadata of sessions with problems from their logs, and acknowledge damaged lines (logs are only appended to, never rewritten)",
		)
		.option("--json", "print an array of reports { sessionId, ok, problems, records, bytes, repaired?, fixed? }")
		.action(async (rawId: string | undefined, flags: VerifyFlags) => {
			const store = await ctx.store();
			let reports = rawId === undefined ? await verifyAll(ctx, store) : await store.verify(await ctx.sessionId(rawId));
			if (flags.repair) {
				const repaired: RepairedReport[] = [];
				for (const report of reports) repaired.push(report.ok ? report : await repairSession(store, report));
				reports = repaired;
			}
			if (flags.json) await ctx.out.json(reports);
			else {
				for (const report of reports)
					for (const line of renderVerifyReport(report, ctx.out.paint)) await ctx.out.line(line);
				const failed = reports.filter((report) => !report.ok).length;
				ctx.out.note(
					failed === 0
						? `${reports.length} session(s) verified${repairedCount(reports)}, no problems${flags.repair ? " left" : ""}.`
						: `${failed} of ${reports.length} session(s) have problems${flags.repair ? " left after repair (the log itself is never rewritten)" : "; `verify --repair` rebuilds their metadata and acknowledges damaged lines"}.`,
				);
			}
			if (reports.some((report) => !report.ok)) throw new ReportedFailure("verify found problems");
		});
}

function repairedCount(reports: readonly VerifyReport[]): string {
	const count = reports.filter((report) => report.repaired).length;
	return count > 0 ? `, ${count} repaired` : "";
}

/** A report after repair: what is left, and what the repair fixed. */
export type RepairedReport = VerifyReport & { fixed?: VerifyProblem[] };

/** Rebuilds a session's metadata, then verifies it again: the problems left are what the log itself holds. */
async function repairSession(store: SessionStore, before: VerifyReport): Promise<RepairedReport> {
	const repair = await store.repair(before.sessionId);
	const [after] = await store.verify(before.sessionId);
	const acknowledged = repair.acknowledged === undefined ? {} : { acknowledged: repair.acknowledged };
	if (!after) return { ...before, repaired: true, ...acknowledged };
	const left = new Set(after.problems.map((problem) => problem.message));
	return {
		...after,
		repaired: true,
		...acknowledged,
		fixed: before.problems.filter((problem) => !left.has(problem.message)),
	};
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
