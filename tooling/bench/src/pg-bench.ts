import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { migrateStore } from "@agent/session";
import type { RecordInput, SessionStore } from "@agent/session-format";
import { createFileStore } from "@agent/session-fs";
import { openPgStore, type PgSessionStore } from "@agent/session-pg";
import { createTestDatabase, findTestPostgres } from "@agent/session-pg/testing";
import { describeMachine } from "./machine.js";

/**
 * PostgreSQL beside the file store on the same data: appends (one session, batched and one
 * record per call; many sessions in parallel), resume of a large session with a late compaction,
 * and the first page of the listing (and a search) over many sessions. Each store runs in this
 * process, one after the other; the database is a fresh one of the PostgreSQL the tests use.
 */

const USAGE = "usage: node dist/pg-bench.js [--quick]";

interface Sizes {
	appendRecords: number;
	batch: number;
	parallelSessions: number;
	resumeBytes: number;
	listSessions: number;
	runs: number;
}

function sizes(quick: boolean): Sizes {
	return quick
		? { appendRecords: 1_000, batch: 100, parallelSessions: 8, resumeBytes: 8_000_000, listSessions: 5_000, runs: 5 }
		: {
				appendRecords: 10_000,
				batch: 100,
				parallelSessions: 16,
				resumeBytes: 100_000_000,
				listSessions: 100_000,
				runs: 9,
			};
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

function message(index: number, bytes: number): RecordInput {
	const role = index % 2 === 0 ? "user" : "assistant";
	const text = `${role} ${index} `.padEnd(bytes, "lorem ipsum dolor sit amet ");
	return role === "user"
		? { recordType: "message", role, content: [{ type: "text", text }] }
		: { recordType: "message", role, content: [{ type: "text", text }], provider: "faux", model: "faux-1" };
}

async function appendRate(store: SessionStore, records: number, batch: number): Promise<number> {
	const { id } = await store.create();
	const started = performance.now();
	for (let done = 0; done < records; done += batch) {
		await store.append(
			id,
			Array.from({ length: Math.min(batch, records - done) }, (_, i) => message(done + i, 400)),
		);
	}
	return records / ((performance.now() - started) / 1000);
}

async function parallelRate(store: SessionStore, sessions: number, records: number, batch: number): Promise<number> {
	const ids = await Promise.all(Array.from({ length: sessions }, async () => (await store.create()).id));
	const started = performance.now();
	await Promise.all(
		ids.map(async (id) => {
			for (let done = 0; done < records; done += batch) {
				await store.append(
					id,
					Array.from({ length: batch }, (_, i) => message(done + i, 400)),
				);
			}
		}),
	);
	return (sessions * records) / ((performance.now() - started) / 1000);
}

/** A session of `bytes` with a compaction near its end keeping the last records: resume reads only those. */
async function bigSession(store: SessionStore, bytes: number): Promise<string> {
	const { id } = await store.create({ name: "big" });
	const recordBytes = 2_000;
	const count = Math.ceil(bytes / recordBytes);
	for (let done = 0; done < count; done += 500) {
		await store.append(
			id,
			Array.from({ length: Math.min(500, count - done) }, (_, i) => message(done + i, recordBytes)),
		);
	}
	const meta = await store.metadata(id);
	await store.append(id, [
		{
			recordType: "compaction",
			firstKeptSeq: meta.lastSeq - 20,
			summary: "## Goal\nbench",
			tokensBefore: 1,
			readFiles: [],
			modifiedFiles: [],
		},
		message(0, 400),
		message(1, 400),
	]);
	return id;
}

async function timeRuns(runs: number, work: () => Promise<unknown>): Promise<number> {
	const times: number[] = [];
	for (let i = 0; i < runs; i++) {
		const started = performance.now();
		await work();
		times.push(performance.now() - started);
	}
	return median(times);
}

/** Sessions for the listing, written straight into the table (100,000 through the API would take the run's whole time). */
async function fillListing(store: PgSessionStore, count: number): Promise<void> {
	await store.pool.query(
		`INSERT INTO agent_sessions (id, created, metadata, last_seq, sort_ms, archived, source, name)
		 SELECT id, m, m, 2, ms, n % 10 = 0, 'interactive', 'session ' || n
		 FROM (SELECT n, lpad(upper(to_hex(n)), 26, '0') AS id, 1700000000000 + n * 1000 AS ms FROM generate_series(1, $1) AS n) s,
		 LATERAL (SELECT jsonb_build_object('id', id, 'createdAt', to_char(to_timestamp(ms / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
		   'lastMessageAt', to_char(to_timestamp(ms / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'model', 'demo/demo',
		   'messageCount', 2, 'source', 'interactive', 'name', 'session ' || n, 'metadataVersion', 1, 'lastSeq', 2, 'logBytes', 600,
		   'compactionCount', 0, 'metrics', jsonb_build_object()) AS m) meta`,
		[count],
	);
	await store.pool.query("ANALYZE agent_sessions");
}

async function main(): Promise<number> {
	const { values } = parseArgs({ options: { quick: { type: "boolean", default: process.env.BENCH_QUICK === "1" } } });
	const server = await findTestPostgres();
	if (!server) {
		console.error(`bench:pg: no PostgreSQL (set AGENT_TEST_PG_URL); skipped. ${USAGE}`);
		return process.env.CI === "true" ? 1 : 0;
	}
	const size = sizes(values.quick === true);
	const database = await createTestDatabase(server, "agent_bench");
	const home = mkdtempSync(join(tmpdir(), "agent-bench-pg-"));
	const pg = await openPgStore({ url: database.url, maxConnections: 20 });
	const files = createFileStore({ home });
	const rows: Array<[string, string, string, string]> = [];
	const rate = (value: number) => `${Math.round(value).toLocaleString("en-US")} records/s`;
	const ms = (value: number) => `${value.toFixed(1)} ms`;
	try {
		const log = (line: string) => console.error(`bench:pg: ${line}`);
		log("appends, one session, batched");
		rows.push([
			`append ${size.appendRecords} records to one session, ${size.batch} per call`,
			rate(await appendRate(files, size.appendRecords, size.batch)),
			rate(await appendRate(pg, size.appendRecords, size.batch)),
			"≥ 5,000 records/s",
		]);
		log("appends, one session, one per call");
		rows.push([
			`append ${size.appendRecords / 10} records to one session, 1 per call`,
			rate(await appendRate(files, size.appendRecords / 10, 1)),
			rate(await appendRate(pg, size.appendRecords / 10, 1)),
			"",
		]);
		log("appends, many sessions");
		rows.push([
			`append to ${size.parallelSessions} sessions in parallel, 10 per call`,
			rate(await parallelRate(files, size.parallelSessions, size.appendRecords / 10, 10)),
			rate(await parallelRate(pg, size.parallelSessions, size.appendRecords / 10, 10)),
			"",
		]);
		log(`resume: writing a ${size.resumeBytes / 1e6} MB session to the file store and copying it to PostgreSQL`);
		const big = await bigSession(files, size.resumeBytes);
		await migrateStore(files, pg);
		// As autovacuum would soon: statistics, so the planner walks the primary key backwards.
		await pg.pool.query("ANALYZE agent_records");
		const fileResume = await timeRuns(size.runs, () => createFileStore({ home }).open(big));
		const pgResume = await timeRuns(size.runs, () => pg.open(big));
		rows.push([
			`resume a ${size.resumeBytes / 1e6} MB session with a late compaction (median of ${size.runs})`,
			ms(fileResume),
			ms(pgResume),
			"PostgreSQL within 2× of the file store",
		]);
		log(`listing: ${size.listSessions} sessions`);
		await fillListing(pg, size.listSessions);
		const firstPage = await timeRuns(size.runs, () => pg.list({ limit: 50 }));
		const page = await pg.list({ limit: 50 });
		const secondPage = await timeRuns(size.runs, () => pg.list({ limit: 50, cursor: page.nextCursor as string }));
		const search = await timeRuns(size.runs, () => pg.list({ limit: 50, search: "session 4242" }));
		rows.push([
			`list the first page (50) of ${size.listSessions.toLocaleString("en-US")} sessions`,
			"see the listing rows above",
			ms(firstPage),
			"< 20 ms",
		]);
		rows.push([
			`list the next page (cursor) of ${size.listSessions.toLocaleString("en-US")} sessions`,
			"",
			ms(secondPage),
			"",
		]);
		rows.push([
			`search names (ILIKE) over ${size.listSessions.toLocaleString("en-US")} sessions, first page`,
			"",
			ms(search),
			"",
		]);
	} finally {
		await pg.close();
		await database.drop();
		rmSync(home, { recursive: true, force: true });
	}
	const machine = describeMachine(tmpdir());
	console.log(`\n## PostgreSQL store beside the file store (${values.quick ? "quick" : "full"} run)\n`);
	console.log(`Machine: ${machine.summary}; PostgreSQL at ${new URL(server).host}\n`);
	console.log("| case | file store | PostgreSQL | goal |\n|---|---:|---:|---|");
	for (const row of rows) console.log(`| ${row.join(" | ")} |`);
	return 0;
}

process.exitCode = await main();
