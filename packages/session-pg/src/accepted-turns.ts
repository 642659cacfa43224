import type { AcceptedTurn, JournaledTurn } from "@agent/session-format";
import type { BackendJournal } from "@agent/session-format/store-kit";
import pg from "pg";
import { notFound, storageFailure } from "./errors.js";

/**
 * The turn journal of the PostgreSQL store: a row per accepted turn in agent_accepted_turns
 * (migration 6), deleted with its session, naming its owner by the backend of a connection the
 * instance keeps open for that (its presence: pid and start time). A turn is lost when that
 * backend is gone from pg_stat_activity: the instance died, or lost its connection (then its own
 * queued turns may be recorded as interrupted by another instance, which the runtime sees: their
 * rows are gone when their time comes, and they do not run). Its arguments come checked by the
 * store shell.
 */
export class TurnJournal implements BackendJournal {
	private presence: Promise<{ client: pg.Client; pid: number; start: string }> | undefined;

	constructor(private readonly pool: pg.Pool) {}

	async note(sessionId: string, turn: AcceptedTurn): Promise<void> {
		try {
			const owner = await this.owner();
			const { rowCount } = await this.pool.query({
				name: "agent_turn_note",
				text: `INSERT INTO agent_accepted_turns (session_id, turn_id, accepted_at, turn, owner_pid, owner_start)
				 SELECT $1, $2, $3::timestamptz, $4, $5, $6::timestamptz WHERE EXISTS (SELECT 1 FROM agent_sessions WHERE id = $1)`,
				values: [sessionId, turn.turnId, turn.acceptedAt, JSON.stringify(turn), owner.pid, owner.start],
			});
			if (rowCount === 0) throw notFound(sessionId);
		} catch (error) {
			throw storageFailure(`noting accepted turn ${turn.turnId} of session ${sessionId}`, error);
		}
	}

	async list(sessionId: string): Promise<JournaledTurn[]> {
		try {
			const { rows } = await this.pool.query<{ turn: string; lost: boolean }>({
				name: "agent_turn_list",
				text: `SELECT turn, NOT EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.pid = t.owner_pid AND a.backend_start = t.owner_start) AS lost
				 FROM agent_accepted_turns t WHERE session_id = $1 ORDER BY accepted_at, turn_id`,
				values: [sessionId],
			});
			return rows.map((row) => ({ ...(JSON.parse(row.turn) as AcceptedTurn), lost: row.lost }));
		} catch (error) {
			throw storageFailure(`reading the accepted turns of session ${sessionId}`, error);
		}
	}

	async forget(sessionId: string, turnId: string): Promise<void> {
		try {
			await this.pool.query({
				name: "agent_turn_forget",
				text: "DELETE FROM agent_accepted_turns WHERE session_id = $1 AND turn_id = $2",
				values: [sessionId, turnId],
			});
		} catch (error) {
			throw storageFailure(`forgetting accepted turn ${turnId} of session ${sessionId}`, error);
		}
	}

	async close(): Promise<void> {
		const presence = this.presence;
		this.presence = undefined;
		const opened = await presence?.catch(() => undefined);
		if (!opened) return;
		// The idle connection was unref'd; referenced again while it ends, or the process could exit
		// before its end is told, leaving whoever awaits close() hanging.
		(opened.client as unknown as { connection?: { stream?: { ref?: () => void } } }).connection?.stream?.ref?.();
		await opened.client.end().catch(() => undefined);
	}

	/** This instance's presence: a connection of its own, opened at the first accepted turn and kept. */
	private owner(): Promise<{ pid: number; start: string }> {
		this.presence ??= (async () => {
			const client = new pg.Client({ ...this.pool.options, application_name: "agent-sessions presence" });
			const forget = () => {
				if (this.presence === opened) this.presence = undefined;
			};
			client.on("error", forget);
			client.on("end", forget);
			await client.connect();
			// As text: a JavaScript Date would drop the microseconds the comparison in `list` needs.
			const { rows } = await client.query<{ pid: number; start: string }>(
				"SELECT pid, backend_start::text AS start FROM pg_stat_activity WHERE pid = pg_backend_pid()",
			);
			// Idle from now on, held for the instance's life: it must not keep a CLI process from exiting.
			(client as unknown as { connection?: { stream?: { unref?: () => void } } }).connection?.stream?.unref?.();
			const row = rows[0];
			if (!row) throw new Error("PostgreSQL did not show this connection in pg_stat_activity");
			return { client, pid: row.pid, start: row.start };
		})();
		const opened = this.presence;
		opened.catch(() => {
			if (this.presence === opened) this.presence = undefined;
		});
		return opened;
	}
}
