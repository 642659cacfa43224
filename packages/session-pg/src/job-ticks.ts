import type { Pool } from "pg";
import { storageFailure } from "./errors.js";

/**
 * Deletes the claims of scheduled job ticks (agent_job_ticks: one row per job and tick, the
 * instance that inserted it ran the tick) from before `before`; returns how many went. A claim
 * matters only while the instances' timers for its tick fire, seconds at most; without this the
 * table grows by a row per job and tick forever. The server runs it daily (config.yaml's
 * retention.job_ticks_older_than).
 */
export async function pruneJobTicks(store: { readonly pool: Pool }, before: Date): Promise<number> {
	if (!(before instanceof Date) || Number.isNaN(before.getTime())) {
		throw new RangeError("@agent/session-pg: pruneJobTicks needs a valid Date");
	}
	try {
		const result = await store.pool.query("DELETE FROM agent_job_ticks WHERE tick < $1", [before]);
		return result.rowCount ?? 0;
	} catch (error) {
		throw storageFailure("deleting old job tick claims", error);
	}
}
