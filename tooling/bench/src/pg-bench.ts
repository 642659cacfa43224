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
import { SEARCH_QUERY, searchSideBySide } from "./pg-search-bench.js";
import { measureSendLatency, type SendLoad } from "./send-latency.js";

/**
 * PostgreSQL beside the file store on the same data: appends (one session, batched and one
 * record per call; many sessions in parallel), resume of a large session with a late compaction,
 * and the first page of the listing (and a search) over many sessions. Each store runs in this
 * process, one after the other; the database is a fresh one of the PostgreSQL the tests use.
 */

const USAGE = "usage: node dist/pg-bench.js [--quick] [--search-only | --send-only]";

interface Sizes {
	appendRecords: number;
	batch: number;
	parallelSessions: number;
	resumeBytes: number;
	listSessions: number;
	/** Sessions of four messages for message search beside the file store. */
	searchSessions: number;
	runs: number;
	send: SendLoad;
}

function sizes(quick: boolean): Sizes {
	return quick
		? {
				appendRecords: 1_000,
				batch: 100,
				parallelSessions: 8,
				resumeBytes: 8_000_000,
				listSessions: 5_000,
				searchSessions: 1_000,
				runs: 5,
				send: { clients: 8, sendsPerClient: 10, sessions: 16 },
			}
		: {
				appendRecords: 10_000,
				batch: 100,
				parallelSessions: 16,
				resumeBytes: 100_000_000,
				listSessions: 100_000,
				searchSessions: 10_000,
				runs: 31,
				send: { clients: 32, sendsPerClient: 25, sessions: 64 },
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

/**
 * The median of `runs` timed runs, after `warmup` untimed ones: a server keeps its connections
 * and prepared statements, so the first runs (connecting, preparing) are not what it pays.
 */
async function timeRuns(runs: number, work: () => Promise<unknown>, warmup = 3): Promise<number> {
	for (let i = 0; i < warmup; i++) await work();
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

/** Words that every session's messages use, one of them per message; QUOKKA_EVERY-th sessions also hold "quokka". */
const TOPICS = ["kubernetes", "postgres", "compaction", "branching", "deployment", "ingress", "migration", "latency"];
const QUOKKA_EVERY = 1_000;

/**
 * Two messages (a question and its answer, about 300 bytes each) for every session of the
 * listing, written straight into the records table as the store writes them (record JSON lines),
 * then ANALYZEd. The search rows look for a word in one session in QUOKKA_EVERY, a word in none,
 * and a word in every session (the first page of hits).
 */
async function fillMessages(store: PgSessionStore, count: number): Promise<void> {
	await store.pool.query(
		`INSERT INTO agent_records (session_id, seq, record_type, line)
		 SELECT lpad(upper(to_hex(n)), 26, '0'), seq, 'message',
		   '{"recordType":"message","schemaVersion":1,"seq":' || seq || ',"timestamp":"2023-11-14T22:13:20.000Z","role":"' ||
		   CASE WHEN seq = 1 THEN 'user' ELSE 'assistant' END || '","content":[{"type":"text","text":"' ||
		   CASE WHEN seq = 1 THEN 'How do I tune ' ELSE 'To tune ' END || ($2::text[])[1 + (n * seq) % array_length($2::text[], 1)] ||
		   ' for session ' || n || '? ' || CASE WHEN n % $3 = 7 THEN 'Ask the quokka. ' ELSE '' END ||
		   repeat('Lorem ipsum dolor sit amet, consectetur adipiscing elit. ', 4) || '"}]}'
		 FROM generate_series(1, $1) AS n, generate_series(1, 2) AS seq`,
		[count, TOPICS, QUOKKA_EVERY],
	);
	// As autovacuum would: statistics, and the trigram index's pending list merged.
	await store.pool.query("VACUUM ANALYZE agent_records");
}

async function main(): Promise<number> {
	const { values } = parseArgs({
		options: {
			quick: { type: "boolean", default: process.env.BENCH_QUICK === "1" },
			"search-only": { type: "boolean", default: false },
			"send-only": { type: "boolean", default: false },
		},
	});
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
		if (!values["search-only"]) {
			// First, before the large writes below leave the disk busy writing back (each turn waits for fdatasync).
			const { clients, sendsPerClient, sessions } = size.send;
			log(`send latency: ${clients} clients × ${sendsPerClient} turns over ${sessions} sessions`);
			const fileSends = await measureSendLatency(mkdtempSync(join(home, "send-")), [], 1, size.send);
			const sendDatabase = await createTestDatabase(server, "agent_bench_send");
			let pgSends: Awaited<ReturnType<typeof measureSendLatency>>;
			try {
				pgSends = await measureSendLatency(
					mkdtempSync(join(home, "send-")),
					["--store", sendDatabase.url],
					2,
					size.send,
				);
			} finally {
				await sendDatabase.drop();
			}
			const sendLoad = `${clients} clients at once, ${sessions} sessions, demo model`;
			const perSecond = (value: number) => `${value.toFixed(0)} turns/s`;
			rows.push([
				`send and wait for the reply (?wait=1), p50; ${sendLoad}; file store: one instance, PostgreSQL: two`,
				ms(fileSends.p50),
				ms(pgSends.p50),
				"",
			]);
			rows.push([`the same, p99 (${pgSends.turns} turns)`, ms(fileSends.p99), ms(pgSends.p99), ""]);
			const ratio = pgSends.turnsPerSecond / fileSends.turnsPerSecond;
			rows.push([
				"the same, throughput",
				perSecond(fileSends.turnsPerSecond),
				perSecond(pgSends.turnsPerSecond),
				`PostgreSQL ≥ 0.8× the file store: ${ratio >= 0.8 ? "met" : "NOT MET"} (${ratio.toFixed(2)}×)`,
			]);
		}
		if (values["send-only"]) return printRows(rows, values.quick === true, server);
		log(
			`message search beside the file store: ${size.searchSessions} sessions × 4 messages, written through each store`,
		);
		const searchDatabase = await createTestDatabase(server, "agent_bench_search");
		const searchPg = await openPgStore({ url: searchDatabase.url, maxConnections: 10 });
		try {
			const found = await searchSideBySide(
				createFileStore({ home: mkdtempSync(join(home, "search-")) }),
				searchPg,
				size.searchSessions,
				Math.min(size.runs, 11),
				(runs, work) => timeRuns(runs, work, 2),
			);
			const met = found.pgMs <= 2 * found.fileMs && found.pgMs <= 1000;
			rows.push([
				`search message text "${SEARCH_QUERY}" (both words in every message, never adjacent: ${found.hits.pg} hits) over ${size.searchSessions.toLocaleString("en-US")} sessions × 4 messages`,
				ms(found.fileMs),
				ms(found.pgMs),
				`PostgreSQL ≤ 2× the file store and ≤ 1 s: ${met ? "met" : "NOT MET"} (${(found.pgMs / found.fileMs).toFixed(2)}×)`,
			]);
			if (found.hits.file !== found.hits.pg) throw new Error(`the stores disagree: ${JSON.stringify(found.hits)}`);
		} finally {
			await searchPg.close();
			await searchDatabase.drop();
		}
		if (values["search-only"]) return printRows(rows, values.quick === true, server);
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
		log(`message search: two messages in each of ${size.listSessions} sessions`);
		await fillMessages(pg, size.listSessions);
		const sessionsText = size.listSessions.toLocaleString("en-US");
		const searchRow = async (what: string, query: string, limit: number) => {
			let hits = 0;
			const time = await timeRuns(size.runs, async () => {
				hits = (await pg.search(query, { limit })).length;
			});
			rows.push([
				`search message text over ${sessionsText} sessions: ${what} ("${query}", ${hits} hits)`,
				"",
				ms(time),
				"",
			]);
		};
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
		await searchRow(`a word in one session of ${QUOKKA_EVERY.toLocaleString("en-US")}, every hit`, "quokka", 1_000);
		await searchRow("a word in none", "axolotl", 100);
		await searchRow("a word in every session, the first 100 hits", "consectetur", 100);
	} finally {
		await pg.close();
		await database.drop();
		rmSync(home, { recursive: true, force: true });
	}
	return printRows(rows, values.quick === true, server);
}

function printRows(rows: ReadonlyArray<readonly string[]>, quick: boolean, server: string): number {
	const machine = describeMachine(tmpdir());
	console.log(`\n## PostgreSQL store beside the file store (${quick ? "quick" : "full"} run)\n`);
	console.log(`Machine: ${machine.summary}; PostgreSQL at ${new URL(server).host}\n`);
	console.log("| case | file store | PostgreSQL | goal |\n|---|---:|---:|---|");
	for (const row of rows) console.log(`| ${row.join(" | ")} |`);
	return 0;
}

process.exitCode = await main();
