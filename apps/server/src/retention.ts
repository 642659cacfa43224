import { type AgentSessions, type InstanceLink, type PruneReport, pruneArchived } from "@agent/session";
import { Cron } from "croner";
import type { Log } from "./log.js";

/** What one retention run did. */
export interface RetentionRun {
	/** The sessions deleted (config.yaml's retention.archived_older_than; absent when unset). */
	sessions?: PruneReport;
	/** Job tick claims deleted (PostgreSQL). */
	jobTicks?: number;
}

/** Where a run is reported: the server's structured log (log.ts). */
export type RetentionLog = Log;

/** The tick claim that makes one instance of several run a scheduled retention (never a job's id: those have no '/'). */
const RETENTION_JOB = "agent-sessions/retention";

/**
 * Runs config.yaml's `retention:` on its schedule (daily at 04:00 by default): deletes the
 * sessions archived longer ago than `archived_older_than` (when set) and, on PostgreSQL, the job
 * tick claims older than `job_ticks_older_than`. Several instances on one database: each tick runs
 * on the one instance that claims it, as scheduled jobs do. Every run is logged, with each session
 * it deleted.
 */
export class RetentionSchedule {
	private cron: Cron | undefined;

	constructor(
		private readonly runtime: AgentSessions,
		private readonly link: Pick<InstanceLink, "claimTick" | "pruneJobTicks">,
		private readonly log: RetentionLog,
	) {
		const { schedule } = runtime.config.retention;
		try {
			// Made paused here so that a bad expression fails the start, with its key named.
			this.cron = this.hasWork()
				? new Cron(schedule, { paused: true, protect: true }, () => this.runLogged())
				: undefined;
		} catch (error) {
			throw new Error(
				`agent-sessions-server: config.yaml: retention.schedule: ${JSON.stringify(schedule)} is not a cron expression (${(error as Error).message})`,
				{ cause: error },
			);
		}
	}

	start(): void {
		this.cron?.resume();
	}

	stop(): void {
		this.cron?.stop();
	}

	/** One run now, whatever the schedule. */
	async run(now = new Date()): Promise<RetentionRun> {
		const { archivedOlderThanMs, jobTicksOlderThanMs } = this.runtime.config.retention;
		const run: RetentionRun = {};
		if (archivedOlderThanMs !== undefined) {
			run.sessions = await pruneArchived(this.runtime.store, {
				olderThanMs: archivedOlderThanMs,
				now,
				remove: (id) => this.runtime.delete(id),
			});
		}
		if (this.link.pruneJobTicks) {
			run.jobTicks = await this.link.pruneJobTicks(new Date(now.getTime() - jobTicksOlderThanMs));
		}
		return run;
	}

	private hasWork(): boolean {
		return this.runtime.config.retention.archivedOlderThanMs !== undefined || this.link.pruneJobTicks !== undefined;
	}

	private async runLogged(): Promise<void> {
		try {
			const tick = new Date(Math.round(Date.now() / 1000) * 1000);
			if (this.link.claimTick && !(await this.link.claimTick(RETENTION_JOB, tick))) return;
			const run = await this.run();
			for (const session of run.sessions?.sessions ?? []) {
				this.log("info", "retention.deleted", {
					sessionId: session.id,
					archivedAt: session.archivedAt,
					name: session.name,
				});
			}
			for (const failure of run.sessions?.failed ?? []) {
				this.log("warn", "retention.failed", { sessionId: failure.id, error: failure.message });
			}
			this.log("info", "retention.ran", {
				deleted: run.sessions?.sessions.length,
				archivedBefore: run.sessions?.cutoff,
				jobTicksDeleted: run.jobTicks,
			});
		} catch (error) {
			this.log("warn", "retention.failed", { error: (error as Error)?.message ?? String(error) });
		}
	}
}
