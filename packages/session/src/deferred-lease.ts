import type {
	AppendResult,
	LeaseHolder,
	RecordInput,
	SessionLease,
	SessionMetadata,
	SessionStore,
} from "@agent/session-format/reading";

/**
 * The lease of a turn on a session created with `deferred: true` that has not been written yet.
 * Taking the store's lease would write the session out (a lease needs files), so until the first
 * assistant message the records go through `store.append`, which keeps them in memory; once an
 * append wrote the session out, the real lease is taken and every later append goes through it.
 */
export class DeferredLease implements SessionLease {
	private real: SessionLease | undefined;

	constructor(
		private readonly store: SessionStore,
		readonly sessionId: string,
		private readonly leaseOptions: { waitMs?: number; signal?: AbortSignal },
		/** Called once, when the session has been written out (with its metadata then). */
		private readonly onWritten: (metadata: SessionMetadata) => void = () => {},
	) {}

	get holder(): LeaseHolder {
		return this.real?.holder ?? { pid: process.pid, host: "this process (deferred session)", since: "" };
	}

	/** True once the session is on disk (its first assistant message was appended). */
	get written(): boolean {
		return this.real !== undefined;
	}

	async append(records: readonly RecordInput[]): Promise<AppendResult> {
		if (this.real) return this.real.append(records);
		const result = await this.store.append(this.sessionId, records, this.leaseOptions);
		const wroteOut = result.records.some((record) => record.recordType === "message" && record.role === "assistant");
		if (wroteOut) {
			this.real = await this.store.lease(this.sessionId, this.leaseOptions);
			this.onWritten(result.metadata);
		}
		return result;
	}

	async release(): Promise<void> {
		await this.real?.release();
	}
}
