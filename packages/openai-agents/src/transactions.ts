import type { CustomRecord, RecordInput, SessionStore, StoredRecord } from "@agent/session-format/reading";
import type { SessionHistoryTransaction, SessionHistoryTransactionArgs } from "@openai/agents-core";
import { invalidArgument } from "./errors.js";
import { asStored, fingerprint } from "./items-json.js";

/** The customType of the record that notes an applied transaction, in the batch that applies it. */
export const TRANSACTION_TYPE = "openai-agents:transaction";

export interface TransactionData {
	operationId: string;
	type: SessionHistoryTransaction["type"];
	/** SHA-256 of the transaction's canonical JSON: a replay must bring the same one. */
	fingerprint: string;
}

/** The arguments checked (as the SDK's reference session checks them), with the transaction's fingerprint. */
export async function checkTransaction(
	args: SessionHistoryTransactionArgs,
): Promise<{ transaction: SessionHistoryTransaction; data: TransactionData }> {
	if (!args || typeof args !== "object")
		throw invalidArgument("applyHistoryTransaction needs { operationId, transaction }");
	const { operationId, transaction } = args;
	if (typeof operationId !== "string" || !operationId.trim()) {
		throw invalidArgument("a history transaction's operationId must be a non-empty string, stable across retries");
	}
	if (!transaction || typeof transaction !== "object") throw invalidArgument("a history transaction must be an object");
	let normalized: SessionHistoryTransaction;
	if (transaction.type === "append_items" && Array.isArray(transaction.items)) {
		normalized = { type: "append_items", items: asStored(transaction.items) };
	} else if (
		transaction.type === "replace_suffix" &&
		Array.isArray(transaction.expectedSuffix) &&
		Array.isArray(transaction.replacement)
	) {
		normalized = {
			type: "replace_suffix",
			expectedSuffix: asStored(transaction.expectedSuffix),
			replacement: asStored(transaction.replacement),
		};
	} else {
		throw invalidArgument(
			`history transaction ${JSON.stringify(operationId)}: expected { type: "append_items", items } or { type: "replace_suffix", expectedSuffix, replacement }`,
		);
	}
	const data = { operationId, type: normalized.type, fingerprint: await fingerprint(normalized) };
	return { transaction: normalized, data };
}

export function transactionRecord(data: TransactionData): RecordInput {
	return { recordType: "custom", customType: TRANSACTION_TYPE, data };
}

function isTransactionRecord(record: StoredRecord): record is CustomRecord & { data: TransactionData } {
	if (record.recordType !== "custom" || record.customType !== TRANSACTION_TYPE) return false;
	const data = record.data as Partial<TransactionData> | undefined;
	return typeof data?.operationId === "string" && typeof data.fingerprint === "string";
}

/**
 * The transactions applied to a session, from its whole log (on every branch: a retry is
 * recognized after a pop or a clear too), read incrementally: each look reads only the records
 * written since the last. Looked at under the lease, so nothing is written meanwhile.
 */
export class TransactionIndex {
	private readonly applied = new Map<string, string>();
	private scannedThrough = 0;

	constructor(
		private readonly store: SessionStore,
		private readonly sessionId: string,
	) {}

	/** The fingerprint the operation was applied with, or undefined when it never was. */
	async lookup(operationId: string): Promise<string | undefined> {
		for await (const record of this.store.readFrom(this.sessionId, this.scannedThrough + 1)) {
			if (isTransactionRecord(record)) this.applied.set(record.data.operationId, record.data.fingerprint);
			this.scannedThrough = record.seq;
		}
		return this.applied.get(operationId);
	}
}
