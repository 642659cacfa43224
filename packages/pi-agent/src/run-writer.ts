import type {
	AppendResult,
	RecordInput,
	SessionLease,
	SessionRecord,
	SessionStore,
} from "@agent/session-format/reading";
import type { Agent, AgentEvent, AgentMessage } from "@mariozechner/pi-agent-core";
import { recordOf } from "./agent-messages.js";
import { sessionMoved } from "./errors.js";

/** Where this agent left the session: a run must find it there. */
export interface Seen {
	lastSeq: number;
	leafSeq: number | null;
}

/** The session as an append left it: the last tree record appended is the leaf (side records are not). */
export function seenAfter(result: AppendResult, before: Seen): Seen {
	let leafSeq = before.leafSeq;
	for (const record of result.records) {
		if (record.recordType === "leaf_change") leafSeq = record.parentSeq ?? null;
		else if (record.recordType !== "turn") leafSeq = record.seq;
	}
	return { lastSeq: result.metadata.lastSeq, leafSeq };
}

interface Turn {
	id: string;
	startedAt: Date;
	records: SessionRecord[];
	last?: AgentMessage;
}

/**
 * Writes an agent's runs into its session: the lease is taken when a run starts (after checking
 * that nobody else moved the session meanwhile) and released when it ends; each message is
 * appended as it ends, before the agent goes on; the run closes with a `turn` record (outcome,
 * duration, model). A run that failed without a message (the agent's own failure message) gets
 * that message written at its end.
 */
export class RunWriter {
	private lease: SessionLease | undefined;
	private turn: Turn | undefined;
	private readonly written = new WeakSet<object>();

	constructor(
		private readonly agent: Agent,
		private readonly store: SessionStore,
		private readonly sessionId: string,
		private readonly waitMs: number | undefined,
		public seen: Seen,
	) {}

	async on(event: AgentEvent): Promise<void> {
		switch (event.type) {
			case "agent_start":
				return this.start();
			case "message_end":
				if (this.lease) await this.append([event.message]);
				return;
			case "agent_end":
				return this.end(event.messages);
			default:
				return;
		}
	}

	private async start(): Promise<void> {
		const lease = await this.store.lease(this.sessionId, this.waitMs === undefined ? {} : { waitMs: this.waitMs });
		try {
			await this.checkUnchanged();
		} catch (error) {
			await lease.release();
			throw error;
		}
		this.lease = lease;
		this.turn = { id: globalThis.crypto.randomUUID(), startedAt: new Date(), records: [] };
	}

	private async append(messages: readonly AgentMessage[], extra: RecordInput[] = []): Promise<void> {
		const lease = this.lease as SessionLease;
		const result = await lease.append([...messages.map(recordOf), ...extra]);
		for (const message of messages) this.written.add(message as object);
		if (this.turn) {
			this.turn.records.push(...result.records.filter((record) => record.recordType !== "turn"));
			if (messages.length > 0) this.turn.last = messages[messages.length - 1];
		}
		this.seen = seenAfter(result, this.seen);
	}

	private async end(messages: readonly AgentMessage[]): Promise<void> {
		const lease = this.lease;
		if (!lease) return;
		try {
			const unwritten = messages.filter((message) => !this.written.has(message as object));
			if (unwritten.length > 0) await this.append(unwritten);
			await this.append([], [this.turnRecord(this.turn?.last)]);
		} finally {
			this.lease = undefined;
			this.turn = undefined;
			await lease.release();
		}
	}

	/** The `turn` record: aborted → cancelled, an error → failed (with its message), else completed. */
	private turnRecord(last: AgentMessage | undefined): RecordInput {
		const turn = this.turn as Turn;
		const model = this.agent.state.model;
		const stop = (last as { stopReason?: string } | undefined)?.stopReason;
		const errorMessage = (last as { errorMessage?: string } | undefined)?.errorMessage;
		const record: RecordInput = {
			recordType: "turn",
			turnId: turn.id,
			outcome: stop === "aborted" ? "cancelled" : stop === "error" ? "failed" : "completed",
			startedAt: turn.startedAt.toISOString(),
			durationMs: Math.max(0, Date.now() - turn.startedAt.getTime()),
			model: `${model.provider}/${model.id}`,
		};
		if (stop === "aborted" || stop === "error") {
			record.error = { code: stop === "aborted" ? "ABORTED" : "MODEL_FAILED", message: errorMessage ?? stop };
		}
		const first = turn.records[0];
		const lastRecord = turn.records[turn.records.length - 1];
		if (first && lastRecord) {
			record.firstSeq = first.seq;
			record.lastSeq = lastRecord.seq;
		}
		return record;
	}

	/** Under the lease: fails when someone else moved the session's leaf since this agent last saw it. */
	private async checkUnchanged(): Promise<void> {
		const metadata = await this.store.metadata(this.sessionId);
		if (metadata.lastSeq === this.seen.lastSeq) return;
		const { context } = await this.store.open(this.sessionId);
		if (context.leafSeq !== this.seen.leafSeq) throw sessionMoved(this.sessionId, this.seen.leafSeq, context.leafSeq);
		this.seen = { lastSeq: metadata.lastSeq, leafSeq: this.seen.leafSeq };
	}
}
