import { listingTime, type ReadOptions, type SessionMetadata, type StoredRecord } from "@agent/session-format";
import { cloneMetadata, MetadataRebuild } from "@agent/session-format/store-kit";
import { notFound, PREFIX } from "./errors.js";
import { columnText, type Db, decodeRow, jsonbText, rowsForward, rowType } from "./rows.js";

interface SessionRow {
	created: SessionMetadata;
	metadata: SessionMetadata | null;
	last_seq: number;
}

/** The bytes the records take as lines of session.jsonl (metadata.logBytes, as the file store counts it). */
export function lineBytes(lines: readonly string[]): number {
	let total = 0;
	for (const line of lines) total += Buffer.byteLength(line) + 1;
	return total;
}

export function where(id: string): string {
	return `${PREFIX} session ${id}`;
}

/**
 * Metadata rebuilt from every record of the session, in seq order, through the same derivation
 * every store uses (MetadataRebuild): the records are the whole truth; `created` stands in for the
 * facts of a session with no record yet.
 */
export async function rebuildMetadata(db: Db, id: string, created: SessionMetadata): Promise<SessionMetadata> {
	const rebuild = new MetadataRebuild(id, created);
	let bytes = 0;
	const quiet: ReadOptions = {};
	for await (const rows of rowsForward(db, id, 1)) {
		for (const row of rows) {
			bytes += Buffer.byteLength(row.line) + 1;
			const record = decodeRow(row, quiet, where(id));
			if (record) rebuild.apply(record as StoredRecord);
		}
	}
	return rebuild.finish(bytes);
}

/** Writes the metadata cache and the listing columns derived from it. */
function metadataValues(metadata: SessionMetadata): unknown[] {
	return [
		metadata.id,
		jsonbText(metadata),
		metadata.lastSeq,
		listingTime(metadata),
		metadata.archivedAt !== undefined,
		metadata.source,
		nullableColumn(metadata.identityKey),
		nullableColumn(metadata.cwd),
		nullableColumn(metadata.name),
	];
}

function nullableColumn(text: string | undefined): string | null {
	return text === undefined ? null : columnText(text);
}

// created_by is read from the metadata itself ($2), so that no statement's other parameters move.
const SET_METADATA =
	"metadata = $2, last_seq = $3, sort_ms = $4, archived = $5, source = $6, identity_key = $7, cwd = $8, name = $9, created_by = $2::jsonb->>'createdBy'";

/**
 * An append's writes in one statement (one round trip): the records, the metadata after them, and
 * the announcement on `channel` (sent on commit).
 */
export async function writeAppend(
	db: Db,
	records: readonly StoredRecord[],
	lines: readonly string[],
	metadata: SessionMetadata,
	channel: string,
): Promise<void> {
	await db.query(
		`WITH inserted AS (
			INSERT INTO agent_records (session_id, seq, record_type, line)
			SELECT $1, * FROM unnest($10::integer[], $11::text[], $12::text[])
		), updated AS (
			UPDATE agent_sessions SET ${SET_METADATA} WHERE id = $1
		)
		SELECT pg_notify($13, $14)`,
		[
			...metadataValues(metadata),
			records.map((record) => record.seq),
			records.map(rowType),
			lines,
			channel,
			JSON.stringify({ id: metadata.id, lastSeq: metadata.lastSeq }),
		],
	);
}

/**
 * writeAppend for a lease holder that knows the session's last seq (the lease's metadata: nobody
 * else writes while it holds the lock): one statement, committed on its own (one round trip
 * instead of four), written only if the session's last_seq is still `lastSeq`. False when it was
 * not (nothing written): the caller reads the session again and appends in a transaction.
 */
export async function writeGuardedAppend(
	db: Db,
	records: readonly StoredRecord[],
	lines: readonly string[],
	metadata: SessionMetadata,
	channel: string,
	lastSeq: number,
): Promise<boolean> {
	// A prepared statement (named): parsed and planned once per connection, as every turn runs it.
	const { rowCount } = await db.query({
		name: "agent_guarded_append",
		text: `WITH current AS (
			SELECT 1 FROM agent_sessions WHERE id = $1 AND last_seq = $15
		), inserted AS (
			INSERT INTO agent_records (session_id, seq, record_type, line)
			SELECT $1, * FROM unnest($10::integer[], $11::text[], $12::text[]) WHERE EXISTS (SELECT 1 FROM current)
		), updated AS (
			UPDATE agent_sessions SET ${SET_METADATA} WHERE id = $1 AND last_seq = $15 RETURNING 1
		)
		SELECT pg_notify($13, $14) FROM updated`,
		values: [
			...metadataValues(metadata),
			records.map((record) => record.seq),
			records.map(rowType),
			lines,
			channel,
			JSON.stringify({ id: metadata.id, lastSeq: metadata.lastSeq }),
			lastSeq,
		],
	});
	return rowCount === 1;
}

export async function saveMetadata(db: Db, metadata: SessionMetadata, onlyIfStaleAt?: number): Promise<void> {
	const values = metadataValues(metadata);
	// A rebuild by a reader writes only over a still-missing cache of the same log (a writer may have been faster).
	const guard = onlyIfStaleAt === undefined ? "" : " AND metadata IS NULL AND last_seq = $10";
	await db.query(
		`UPDATE agent_sessions SET ${SET_METADATA} WHERE id = $1${guard}`,
		onlyIfStaleAt === undefined ? values : [...values, onlyIfStaleAt],
	);
}

/**
 * The session's metadata, rebuilt from its records when the cache is gone (and stored again).
 * `forUpdate` locks the row for the writer's transaction. Throws SESSION_NOT_FOUND.
 */
export async function loadMetadata(db: Db, id: string, forUpdate = false): Promise<SessionMetadata> {
	const { rows } = await db.query<SessionRow>({
		name: forUpdate ? "agent_session_for_update" : "agent_session",
		text: `SELECT created, metadata, last_seq FROM agent_sessions WHERE id = $1${forUpdate ? " FOR UPDATE" : ""}`,
		values: [id],
	});
	const row = rows[0];
	if (!row) throw notFound(id);
	if (row.metadata) return row.metadata;
	const rebuilt = await rebuildMetadata(db, id, row.created);
	await saveMetadata(db, rebuilt, forUpdate ? undefined : row.last_seq);
	return cloneMetadata(rebuilt);
}

/** Rebuilds every session whose cache is gone (an indexed look-up: usually none). */
export async function rebuildStale(db: Db): Promise<void> {
	const { rows } = await db.query<{ id: string }>("SELECT id FROM agent_sessions WHERE metadata IS NULL");
	for (const { id } of rows) {
		try {
			await loadMetadata(db, id);
		} catch {
			// Deleted meanwhile.
		}
	}
}

/** Inserts a new session's row: the facts it was created with, and its metadata. */
export async function insertSession(db: Db, created: SessionMetadata, metadata: SessionMetadata): Promise<void> {
	await db.query(
		"INSERT INTO agent_sessions (id, created, metadata, last_seq, sort_ms, archived, source, identity_key, cwd, name) VALUES ($1, $2, $3, 0, 0, false, 'interactive', NULL, NULL, NULL)",
		[created.id, jsonbText(created), jsonbText(metadata)],
	);
	await saveMetadata(db, metadata);
}

/** Inserts records (already prepared and validated) in one statement. */
export async function insertRecords(
	db: Db,
	id: string,
	records: readonly StoredRecord[],
	lines: readonly string[],
): Promise<void> {
	if (records.length === 0) return;
	await db.query(
		"INSERT INTO agent_records (session_id, seq, record_type, line) SELECT $1, * FROM unnest($2::integer[], $3::text[], $4::text[])",
		[id, records.map((record) => record.seq), records.map(rowType), lines],
	);
}

/** SessionImportTarget.adoptSession: the session with these creation facts unless it exists; its last seq. */
export async function adoptSession(db: Db, id: string, facts: SessionMetadata): Promise<number> {
	const metadata = { ...cloneMetadata(facts), id, lastSeq: 0, logBytes: 0 };
	await db.query(
		"INSERT INTO agent_sessions (id, created, metadata, sort_ms) VALUES ($1, $2, $2, 0) ON CONFLICT (id) DO NOTHING",
		[id, jsonbText(metadata)],
	);
	const { rows } = await db.query<{ last_seq: number; metadata: SessionMetadata | null }>(
		"SELECT last_seq, metadata FROM agent_sessions WHERE id = $1",
		[id],
	);
	if (rows[0]?.last_seq === 0 && rows[0].metadata !== null) await saveMetadata(db, rows[0].metadata);
	return rows[0]?.last_seq ?? 0;
}
