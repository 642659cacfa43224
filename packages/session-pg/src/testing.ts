import { execFileSync, spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";

/**
 * PostgreSQL for tests (ours and yours): `AGENT_TEST_PG_URL`, else a server on 127.0.0.1:5432
 * (user postgres, trust auth), else a private throwaway cluster started from the installed
 * binaries (Debian's postgresql: /usr/lib/postgresql/<version>/bin; as root it runs as the
 * `postgres` user), stopped when the process exits. Undefined when there is none — under
 * CI=true that throws instead, so CI never skips these tests.
 */
export async function findTestPostgres(): Promise<string | undefined> {
	const given = process.env.AGENT_TEST_PG_URL;
	if (given) return given;
	const local = "postgres://postgres@127.0.0.1:5432/postgres";
	if (await reachable(local)) return local;
	// The cluster lives as long as this process.
	const started = startCluster();
	if (started) return started.url;
	if (process.env.CI === "true") {
		throw new Error(
			"@agent/session-pg: no PostgreSQL for the tests (CI=true never skips them): set AGENT_TEST_PG_URL, run one on 127.0.0.1:5432, or install Debian's postgresql (`node tooling/scripts/bootstrap.mjs` does as root)",
		);
	}
	return undefined;
}

async function reachable(url: string): Promise<boolean> {
	const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
	client.on("error", () => undefined);
	try {
		await client.connect();
		await client.query("SELECT 1");
		return true;
	} catch {
		return false;
	} finally {
		await client.end().catch(() => undefined);
	}
}

function postgresBin(): string | undefined {
	const root = "/usr/lib/postgresql";
	if (!existsSync(root)) return undefined;
	const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
	for (const version of versions) {
		const bin = join(root, version, "bin");
		if (existsSync(join(bin, "initdb")) && existsSync(join(bin, "pg_ctl"))) return bin;
	}
	return undefined;
}

/** Runs a cluster binary, as the postgres user when we are root (PostgreSQL refuses to run as root). */
function run(bin: string, args: string[]): void {
	const asRoot = process.getuid?.() === 0;
	const result = asRoot
		? spawnSync("runuser", ["-u", "postgres", "--", bin, ...args], { stdio: "pipe" })
		: spawnSync(bin, args, { stdio: "pipe" });
	if (result.status !== 0) throw new Error(`${bin} failed: ${result.stderr?.toString() ?? ""}`);
}

function freePortSync(): number {
	// A port from the ephemeral range that nothing listens on right now (checked by pg_ctl's start).
	const out = execFileSync(process.execPath, [
		"-e",
		"const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})",
	]);
	return Number(out.toString().trim());
}

/** A private PostgreSQL cluster of this process (see startCluster). */
export interface ThrowawayCluster {
	url: string;
	/** Stops the server (fast shutdown: connections are cut, as in a database restart). */
	stop(): void;
	/** Starts it again on the same port and data. */
	start(): void;
}

/**
 * Starts a private PostgreSQL cluster in a temp directory (trust auth, user postgres, fsync off,
 * a free port on 127.0.0.1), stopped and removed when the process exits. Undefined when the
 * binaries are missing or it could not start.
 */
export function startCluster(): ThrowawayCluster | undefined {
	const bin = postgresBin();
	if (!bin) return undefined;
	const dir = mkdtempSync(join(tmpdir(), "agent-pg-"));
	try {
		if (process.getuid?.() === 0) {
			const uid = execFileSync("id", ["-u", "postgres"]).toString().trim();
			const gid = execFileSync("id", ["-g", "postgres"]).toString().trim();
			chownSync(dir, Number(uid), Number(gid));
		}
		chmodSync(dir, 0o700);
		const data = join(dir, "data");
		run(join(bin, "initdb"), ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync"]);
		const port = freePortSync();
		const pgCtl = join(bin, "pg_ctl");
		const start = () =>
			run(pgCtl, [
				"-D",
				data,
				"-l",
				join(dir, "log"),
				"-w",
				"-o",
				`-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
				"start",
			]);
		start();
		stopWhenGone(process.pid, pgCtl, data, dir);
		return {
			url: `postgres://postgres@127.0.0.1:${port}/postgres`,
			stop: () => run(pgCtl, ["-D", data, "-m", "fast", "-w", "stop"]),
			start,
		};
	} catch {
		rmSync(dir, { recursive: true, force: true });
		return undefined;
	}
}

/**
 * A watchdog that outlives this process: once it is gone (however it ended: test workers are
 * often killed, so an exit hook would not do), stops the cluster and removes its directory.
 */
function stopWhenGone(parent: number, pgCtl: string, data: string, dir: string): void {
	// The check runs as us (the postgres user may not signal our process); pg_ctl as the cluster's owner.
	const asOwner = process.getuid?.() === 0 ? "runuser -u postgres -- " : "";
	const script = `while kill -0 ${parent} 2>/dev/null; do sleep 1; done; ${asOwner}"${pgCtl}" -D "${data}" -m immediate stop >/dev/null 2>&1; rm -rf "${dir}"`;
	spawn("sh", ["-c", script], { detached: true, stdio: "ignore" }).unref();
}

/** A database of its own for one test run: created empty, dropped by `drop`. */
export interface TestDatabase {
	url: string;
	drop(): Promise<void>;
}

export async function createTestDatabase(serverUrl: string, prefix = "agent_test"): Promise<TestDatabase> {
	const name = `${prefix}_${process.pid}_${randomBytes(4).toString("hex")}`;
	const admin = new pg.Client({ connectionString: serverUrl });
	await admin.connect();
	try {
		await admin.query(`CREATE DATABASE ${name}`);
	} finally {
		await admin.end();
	}
	const url = new URL(serverUrl);
	url.pathname = `/${name}`;
	return {
		url: url.toString(),
		async drop() {
			const client = new pg.Client({ connectionString: serverUrl });
			await client.connect();
			try {
				await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
			} finally {
				await client.end();
			}
		},
	};
}

/** A table held locked by a test (lockTable). */
export interface HeldTableLock {
	/** Statements of the database waiting for this lock whose text holds `text`. */
	waiting(text: string): Promise<number>;
	/** Lets go of the lock (the waiting statements then run). */
	release(): Promise<void>;
}

/**
 * Holds an ACCESS EXCLUSIVE lock on `table` of the database at `url` until release(): every
 * statement that reads the table waits for it. So a test can hold a query of the store while it
 * runs, on a machine of any speed, and see whether it is cancelled.
 */
export async function lockTable(url: string, table: string): Promise<HeldTableLock> {
	const holder = new pg.Client({ connectionString: url });
	// Asked from a connection of its own: in the holder's transaction pg_stat_activity would stay as it was first read.
	const observer = new pg.Client({ connectionString: url });
	await Promise.all([holder.connect(), observer.connect()]);
	await holder.query(`BEGIN; LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
	return {
		async waiting(text) {
			const { rows } = await observer.query<{ n: number }>(
				`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database()
				 AND wait_event_type = 'Lock' AND query LIKE $1 AND pid <> pg_backend_pid()`,
				[`%${text}%`],
			);
			return rows[0]?.n ?? 0;
		},
		async release() {
			await holder.query("ROLLBACK").catch(() => undefined);
			await Promise.all([holder.end(), observer.end()]);
		},
	};
}
