import {
	AgentSessionError,
	type ContentBlock,
	isAgentSessionError,
	type SessionLease,
	type SessionRecord,
} from "@agent/session-format/reading";
import { recordLostTurns, recordUnstartedTurn } from "./accepted-turns.js";
import type { CompactionRuns } from "./compaction-runs.js";
import { TurnDeadline } from "./deadlines.js";
import { DeferredLease } from "./deferred-lease.js";
import { toEventError } from "./events.js";
import { isInterruption } from "./interruption.js";
import type { ResolvedModel } from "./model-names.js";
import { nameFromFirstMessage, titleFromModel } from "./naming.js";
import type { RuntimeCore, SendOptions, TurnResult } from "./runtime-options.js";
import { toolsForTurn } from "./tools.js";
import { runTurn } from "./turn.js";
import type { TurnControls } from "./turn-controls.js";
import { turnRecordInput } from "./turn-record.js";

/** How far a turn got: whether it held the lease, and whether its journal note must stay (see execute). */
interface TurnProgress {
	leased: boolean;
	keepNoted: boolean;
}

/**
 * A queued turn when its time comes: the session's lease (or a deferred session's stand-in), the
 * turns lost by a dead process recorded first, the turn itself (turn.ts), the session named, and
 * the `turn` record that closes it, whatever happened (a turn its process stops before it started
 * is recorded too, as interrupted). Tells turn.started, then turn.completed or turn.failed.
 */
export class TurnExecution {
	constructor(
		private readonly core: RuntimeCore,
		private readonly compactions: CompactionRuns,
		private readonly controls: TurnControls,
	) {}

	async execute(
		sessionId: string,
		turnId: string,
		content: ContentBlock[],
		options: SendOptions,
		journaled: boolean,
	): Promise<TurnResult> {
		const progress: TurnProgress = { leased: false, keepNoted: false };
		try {
			return await this.run(sessionId, turnId, content, options, journaled, progress);
		} finally {
			// Its turn record is in the log (or it never started, or it was recorded as lost elsewhere).
			if (journaled && !progress.keepNoted) {
				await this.core.store.forgetAcceptedTurn?.(sessionId, turnId).catch(() => undefined);
			}
		}
	}

	private async run(
		sessionId: string,
		turnId: string,
		content: ContentBlock[],
		options: SendOptions,
		journaled: boolean,
		progress: TurnProgress,
	): Promise<TurnResult> {
		const { store, events, config } = this.core;
		this.controls.started(turnId);
		events.emit({ type: "turn.started", sessionId, turnId });
		// From here the turn has turnTimeoutMs: what it waits for then is stopped, and it ends as timed_out.
		const deadline = new TurnDeadline(this.core.turnTimeoutMs());
		const signal = deadline.join(options.signal);
		try {
			// Cancelled while it waited in the queue: it never starts, and nothing is written.
			if (options.signal?.aborted) {
				throw new AgentSessionError("ABORTED", "@agent/session: the turn was cancelled before it started", {
					cause: options.signal.reason,
				});
			}
			const metadata = await store.metadata(sessionId);
			// Before anything is written: a model that cannot run (unknown, no API key) fails the turn here.
			const model = await this.core.resolve(options.model ?? (metadata.model || this.core.defaultModel()));
			const ephemeral = [...((await this.core.options.ephemeral?.(sessionId)) ?? []), ...(options.ephemeral ?? [])];
			const leaseOptions = { waitMs: this.core.leaseWaitMs(), signal };
			// A deferred session not yet written takes no lease (that would write it out) until its first reply.
			const deferred = this.core.unwritten.has(sessionId)
				? new DeferredLease(store, sessionId, leaseOptions, (written) =>
						events.emit({ type: "session.created", sessionId, metadata: written }),
					)
				: undefined;
			const lease = deferred ?? (await store.lease(sessionId, leaseOptions));
			progress.leased = true;
			if (!deferred) {
				await recordLostTurns(store, lease, turnId, {
					journaled,
					ours: (id) => this.controls.has(id),
					onRecord: (record) => events.emit({ type: "record.appended", sessionId, record }),
				});
			}
			const startedAt = new Date();
			const records: SessionRecord[] = [];
			const toolExecutor = toolsForTurn(this.core.options.toolExecutor, options.toolExecutor, sessionId);
			try {
				await runTurn(
					{
						store,
						events,
						maxToolSteps: config.maxToolSteps,
						...(toolExecutor ? { toolExecutor } : {}),
						...(config.pruneToolOutputs ? { pruneToolOutputs: config.pruneToolOutputs } : {}),
						reserveTokens: config.compaction.reserveTokens,
						modelCallTimeoutMs: this.core.modelCallTimeoutMs(),
						compactIfNeeded: (held, turnModel, trigger, signal, opened) =>
							this.compactions.auto(held, turnModel, trigger, signal, opened),
						onAppended: (record) => records.push(record),
					},
					lease,
					{
						sessionId,
						turnId,
						content,
						model,
						ephemeral,
						keepFailedReply: () => deferred === undefined || deferred.written,
						signal,
						...(options.thinkingLevel !== undefined ? { thinkingLevel: options.thinkingLevel } : {}),
						...(options.parentSeq !== undefined ? { parentSeq: options.parentSeq } : {}),
					},
				);
				if (!metadata.name) await this.nameSession(lease, content, model, signal);
				await this.recordTurn(lease, { turnId, startedAt, model: model.name, records });
			} catch (caught) {
				const error = deadline.fired ? deadline.timedOut(caught) : caught;
				if (deferred && !deferred.written) await this.discardUnwritten(sessionId);
				else {
					const interrupted = isInterruption(options.signal?.reason);
					const turn = { turnId, startedAt, model: model.name, records, error, interrupted };
					await this.recordTurn(lease, turn).catch(() => {});
				}
				throw error;
			} finally {
				if (deferred?.written) this.core.unwritten.delete(sessionId);
				await lease.release();
			}
			const result = { turnId, sessionId, records };
			events.emit({ type: "turn.completed", sessionId, turnId, records });
			return result;
		} catch (caught) {
			const error = deadline.fired && !isAgentSessionError(caught, "TIMED_OUT") ? deadline.timedOut(caught) : caught;
			// Stopped by its process stopping before it started: it was acknowledged, so the log tells it
			// (or, when that fails, the journal keeps it, to be recorded as lost when the session is next used).
			if (journaled && !progress.leased && isInterruption(options.signal?.reason)) {
				progress.keepNoted = !(await recordUnstartedTurn(store, sessionId, turnId, {
					waitMs: Math.min(this.core.leaseWaitMs(), 5000),
					onRecord: (record) => events.emit({ type: "record.appended", sessionId, record }),
				}));
			}
			events.emit({ type: "turn.failed", sessionId, turnId, error: toEventError(error) });
			throw error;
		} finally {
			deadline.clear();
		}
	}

	/** Closes a turn with its `turn` record (outcome, duration = uptime, usage). */
	private async recordTurn(
		lease: SessionLease,
		turn: {
			turnId: string;
			startedAt: Date;
			model: string;
			records: SessionRecord[];
			error?: unknown;
			interrupted?: boolean;
		},
	): Promise<void> {
		const result = await lease.append([turnRecordInput({ ...turn, endedAt: new Date() })]);
		const sessionId = lease.sessionId;
		for (const record of result.records) this.core.events.emit({ type: "record.appended", sessionId, record });
		this.core.events.emit({ type: "session.updated", sessionId, metadata: result.metadata });
	}

	/** A deferred session whose first turn failed before any reply: forgotten, nothing was written. */
	private async discardUnwritten(sessionId: string): Promise<void> {
		this.core.unwritten.delete(sessionId);
		await this.core.store.delete(sessionId);
		this.core.events.emit({ type: "session.deleted", sessionId });
	}

	private async nameSession(
		lease: SessionLease,
		content: ContentBlock[],
		model: ResolvedModel,
		signal: AbortSignal,
	): Promise<void> {
		const titled = this.core.config.llmTitles;
		const name = titled ? await titleFromModel(model, content, signal) : nameFromFirstMessage(content);
		if (!name) return;
		const result = await lease.append([{ recordType: "session_info", name }]);
		this.core.updated(result.metadata);
	}
}
