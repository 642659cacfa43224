import type { SessionLease, SessionStore } from "@agent/session-format";
import type { ServerMetrics } from "./metrics.js";

/** The store's promise-returning operations whose failures are counted. */
const OPERATIONS = [
	"create",
	"open",
	"append",
	"tail",
	"list",
	"listAsJson",
	"summarize",
	"metadata",
	"search",
	"fork",
	"branch",
	"rename",
	"label",
	"archive",
	"unarchive",
	"delete",
	"findByIdentity",
	"addUptime",
	"noteAcceptedTurn",
	"acceptedTurns",
	"forgetAcceptedTurn",
] as const;

/** Codes that say the store failed (its disk, its database), not that the caller asked for something wrong. */
const STORE_FAILURES = new Set(["STORAGE_FAILURE", "CORRUPT_RECORD"]);

/**
 * Counts the store's failures (agent_store_errors_total) and times its lease waits
 * (agent_lease_wait_seconds) by wrapping the store's own methods in place: the runtime took this
 * store object when it opened and keeps calling it, and the store contract has no hooks, so
 * wrapping the object the runtime holds is the one way to see every call, the runtime's included.
 */
export function watchStore(store: SessionStore, metrics: ServerMetrics): void {
	const target = store as unknown as Record<string, unknown>;
	for (const operation of OPERATIONS) {
		const original = target[operation];
		if (typeof original !== "function") continue;
		const bound = (original as (...args: unknown[]) => unknown).bind(store);
		target[operation] = (...args: unknown[]) => counted(metrics, operation, bound(...args));
	}
	const lease = store.lease.bind(store);
	store.lease = async (id, options) => {
		const started = performance.now();
		try {
			const held = await lease(id, options);
			metrics.leaseWait.observe({ outcome: "acquired" }, (performance.now() - started) / 1000);
			watchLease(held, metrics);
			return held;
		} catch (error) {
			const code = codeOf(error);
			const outcome = code === "SESSION_LOCKED" ? "locked" : code === "ABORTED" ? "aborted" : "failed";
			metrics.leaseWait.observe({ outcome }, (performance.now() - started) / 1000);
			countFailure(metrics, "lease", error);
			throw error;
		}
	};
}

function watchLease(lease: SessionLease, metrics: ServerMetrics): void {
	const append = lease.append.bind(lease);
	lease.append = (records) => counted(metrics, "lease.append", append(records));
}

function counted<T>(metrics: ServerMetrics, operation: string, result: T): T {
	if (!(result instanceof Promise)) return result;
	return result.catch((error: unknown) => {
		countFailure(metrics, operation, error);
		throw error;
	}) as T;
}

function countFailure(metrics: ServerMetrics, operation: string, error: unknown): void {
	const code = codeOf(error);
	if (code !== undefined && STORE_FAILURES.has(code)) metrics.storeErrors.inc({ operation, code });
}

function codeOf(error: unknown): string | undefined {
	const code = (error as { code?: unknown } | null)?.code;
	return typeof code === "string" ? code : undefined;
}
