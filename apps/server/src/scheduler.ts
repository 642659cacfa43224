import type { AgentSessions, ScheduledJob, TurnResult } from "@agent/session";
import { Cron } from "croner";

/** A job as GET /api/jobs shows it. */
export interface JobDescription {
	id: string;
	schedule: string;
	enabled: boolean;
	model?: string;
	/** ISO time of the next run; absent when the job is disabled or the scheduler is stopped. */
	nextRun?: string;
}

export interface JobRunReport {
	jobId: string;
	sessionId?: string;
	error?: unknown;
}

/**
 * Runs config.yaml's jobs on their cron schedules: each run is a new session tagged
 * source "cron" with the job's id (S7.7) and one turn with the job's prompt. A job still running
 * when its next time comes is skipped rather than stacked.
 */
export class JobScheduler {
	private readonly crons = new Map<string, Cron>();
	private readonly jobs: readonly ScheduledJob[];

	constructor(
		private readonly runtime: AgentSessions,
		jobs: readonly ScheduledJob[],
		private readonly onRun: (report: JobRunReport) => void = () => {},
		/** Aborts running jobs' turns (the server's shutdown). */
		private readonly signal?: AbortSignal,
		/** Several instances on one store: a scheduled tick runs only where it was claimed (see joinInstances). */
		private readonly claimTick?: (jobId: string, tick: Date) => Promise<boolean>,
	) {
		this.jobs = jobs;
		const seen = new Set<string>();
		for (const job of jobs) {
			if (seen.has(job.id)) throw new Error(`agent-sessions-server: config.yaml: two jobs have the id ${job.id}`);
			seen.add(job.id);
			if (!job.enabled) continue;
			let cron: Cron;
			try {
				cron = new Cron(job.schedule, { paused: true, protect: true }, () => this.runLogged(job));
			} catch (error) {
				throw new Error(
					`agent-sessions-server: config.yaml: job ${job.id}: ${JSON.stringify(job.schedule)} is not a cron expression (${(error as Error).message})`,
					{ cause: error },
				);
			}
			this.crons.set(job.id, cron);
		}
	}

	/** Starts every enabled job's schedule. */
	start(): void {
		for (const cron of this.crons.values()) cron.resume();
	}

	/** Stops every schedule for good; runs in progress finish on their own. */
	stop(): void {
		for (const cron of this.crons.values()) cron.stop();
		this.crons.clear();
	}

	/** Runs a job now, outside its schedule (what a scheduled run does), and resolves with the turn. */
	trigger(jobId: string): Promise<TurnResult> {
		const job = this.jobs.find((candidate) => candidate.id === jobId);
		if (!job) return Promise.reject(new Error(`agent-sessions-server: no job ${JSON.stringify(jobId)} in config.yaml`));
		return this.run(job);
	}

	describe(): JobDescription[] {
		return this.jobs.map((job) => {
			const next = this.crons.get(job.id)?.nextRun();
			return {
				id: job.id,
				schedule: job.schedule,
				enabled: job.enabled,
				...(job.model ? { model: job.model } : {}),
				...(next ? { nextRun: next.toISOString() } : {}),
			};
		});
	}

	private run(job: ScheduledJob): Promise<TurnResult> {
		return this.runtime.runScheduled(job.id, job.prompt, {
			...(job.model ? { model: job.model } : {}),
			...(this.signal ? { signal: this.signal } : {}),
		});
	}

	private async runLogged(job: ScheduledJob): Promise<void> {
		try {
			// The tick this run is for: instances' timers fire within milliseconds of the scheduled time.
			const tick = new Date(Math.round(Date.now() / 1000) * 1000);
			if (this.claimTick && !(await this.claimTick(job.id, tick))) return;
			const result = await this.run(job);
			this.onRun({ jobId: job.id, sessionId: result.sessionId });
		} catch (error) {
			this.onRun({ jobId: job.id, error });
		}
	}
}
