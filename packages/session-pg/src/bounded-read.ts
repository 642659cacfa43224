import { AgentSessionError } from "@agent/session-format";
import type { Pool, PoolClient } from "pg";
import { PREFIX, sqlState, storageFailure } from "./errors.js";

/** query_canceled: a statement stopped by statement_timeout or by pg_cancel_backend. */
const QUERY_CANCELED = "57014";

/**
 * Runs `work` on a connection of its own, in a read-only transaction whose statements stop after
 * `timeoutMs` (statement_timeout), and stops the statement running when `signal` aborts (an HTTP
 * client gone, Ctrl+C): PostgreSQL does not notice a client that went away until it sends it rows,
 * so a long search kept running for as long as it took. The cancel is PostgreSQL's own
 * (pg_cancel_backend on the connection's backend, sent from another connection); the connection
 * of a cancelled read is closed rather than reused, so a late cancel can never reach another
 * statement. Aborted: ABORTED; timed out: STORAGE_FAILURE, temporary (servers answer 503).
 */
export async function boundedRead<T>(
	pool: Pool,
	what: string,
	options: { timeoutMs: number; signal?: AbortSignal | undefined },
	work: (client: PoolClient) => Promise<T>,
): Promise<T> {
	const { signal, timeoutMs } = options;
	if (signal?.aborted) throw aborted(what, signal.reason);
	let client: PoolClient;
	try {
		client = await pool.connect();
	} catch (error) {
		throw storageFailure(`${what}: connecting to PostgreSQL`, error);
	}
	let cancelled = false;
	const cancel = () => {
		cancelled = true;
		const pid = (client as unknown as { processID?: number }).processID;
		if (pid) pool.query("SELECT pg_cancel_backend($1)", [pid]).catch(() => undefined);
	};
	signal?.addEventListener("abort", cancel, { once: true });
	try {
		await client.query(`BEGIN READ ONLY; SET LOCAL statement_timeout = ${Math.max(1, Math.ceil(timeoutMs))}`);
		const result = await work(client);
		await client.query("COMMIT");
		return result;
	} catch (error) {
		if (!cancelled) await client.query("ROLLBACK").catch(() => undefined);
		if (cancelled || signal?.aborted) throw aborted(what, error);
		if (sqlState(error) === QUERY_CANCELED) {
			const timedOut = new AgentSessionError(
				"STORAGE_FAILURE",
				`${PREFIX} ${what} ran longer than ${timeoutMs} ms and was stopped (statement_timeout); narrow it (more or rarer words, a working directory) or raise the store's searchTimeoutMs`,
				{ cause: error },
			);
			throw Object.assign(timedOut, { temporary: true });
		}
		throw storageFailure(what, error);
	} finally {
		signal?.removeEventListener("abort", cancel);
		client.release(cancelled ? new Error("cancelled") : undefined);
	}
}

function aborted(what: string, cause: unknown): AgentSessionError {
	return new AgentSessionError("ABORTED", `${PREFIX} ${what} was cancelled (its caller went away or was interrupted)`, {
		cause,
	});
}
