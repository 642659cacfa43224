import fs from "node:fs";
import path from "node:path";
import type { SessionMetadata } from "@agent/session-format";
import { createTestDatabase, findTestPostgres, lockTable, type TestDatabase } from "@agent/session-pg/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assistantBody, cleanEnv, cliAt, jsonl, runCli, startCli, tempHome, userBody } from "./cli-harness.js";

const server = await findTestPostgres();

describe.skipIf(server === undefined)("--store and AGENT_STORE pick the store", () => {
	let database: TestDatabase;
	beforeAll(async () => {
		database = await createTestDatabase(server as string, "agent_cli_test");
	});
	afterAll(async () => {
		await database?.drop();
	});

	async function ok(args: string[], options: { input?: string; env?: NodeJS.ProcessEnv } = {}): Promise<string> {
		const result = await runCli(args, options);
		if (result.code !== 0) throw new Error(`agent-sessions ${args.join(" ")} exited ${result.code}: ${result.stderr}`);
		return result.stdout;
	}

	it("--store postgres://… keeps sessions in PostgreSQL; AGENT_STORE does the same; the home stays empty", async () => {
		const home = await tempHome();
		const id = (await ok(["--home", home, "--store", database.url, "create", "--name", "in postgres"])).trim();
		await ok(["--store", database.url, "append", id], { input: jsonl(userBody("hello"), assistantBody("hi")) });
		const viaEnv = JSON.parse(
			await ok(["list", "--json"], { env: cleanEnv({ AGENT_STORE: database.url }) }),
		) as SessionMetadata[];
		expect(viaEnv.map((session) => session.id)).toContain(id);
		expect(viaEnv.find((session) => session.id === id)?.messageCount).toBe(2);
		const inHome = JSON.parse(await ok(["--home", home, "list", "--json"])) as SessionMetadata[];
		expect(inHome).toEqual([]);
	});

	it("create --send over PostgreSQL runs the turn (journaled: noted, then forgotten) and prints the reply", async () => {
		const home = await tempHome();
		const text = `${"a".repeat(118)}😀bbb`;
		const out = await ok(["--home", home, "--store", database.url, "create", "--model", "demo", "--send", text]);
		const id = out.split("\n")[0] ?? "";
		expect(out).toContain(text);
		const listed = JSON.parse(await ok(["--store", database.url, "list", "--json"])) as SessionMetadata[];
		const session = listed.find((entry) => entry.id === id);
		expect(session?.messageCount).toBe(2);
		expect(session?.firstMessage).toBe(`${"a".repeat(118)}…`);
	});

	it("search over PostgreSQL interrupted with Ctrl+C stops its statement there, then exits (issue 29, case 2)", async () => {
		const id = (await ok(["--store", database.url, "create", "--name", "searched"])).trim();
		await ok(["--store", database.url, "append", id], { input: jsonl(userBody("alpha bravo")) });
		// The records table held locked: the search's statement waits in PostgreSQL, however fast the machine.
		const lock = await lockTable(database.url, "agent_records");
		const searchStatement = "record_type = 'message'";
		try {
			const search = startCli(["--store", database.url, "search", "alpha"]);
			await expect.poll(() => lock.waiting(searchStatement), { timeout: 20_000 }).toBe(1);
			search.child.kill("SIGINT");
			const result = await search.done;
			expect(result.code).not.toBe(0);
			expect(result.stderr).toMatch(/cancelled/);
			// Gone while the lock is still held: cancelled, not left to run out its statement_timeout.
			await expect.poll(() => lock.waiting(searchStatement), { timeout: 5_000 }).toBe(0);
		} finally {
			await lock.release();
		}
	});

	it("--store with a directory or file:// URL is the file store there", async () => {
		const home = await tempHome();
		const id = (await ok(["--store", `file://${home}`, "create"])).trim();
		const listed = JSON.parse(await ok(["--store", home, "list", "--json"])) as SessionMetadata[];
		expect(listed.map((session) => session.id)).toEqual([id]);
	});

	it("migrate copies a home into PostgreSQL with progress; run again it copies nothing", async () => {
		const home = await tempHome();
		const target = await createTestDatabase(server as string, "agent_cli_migrate");
		try {
			const id = (await ok(["--home", home, "create", "--name", "moving"])).trim();
			await ok(["--home", home, "append", id], { input: jsonl(userBody("q"), assistantBody("a")) });
			const first = await runCli(["migrate", "--from", home, "--to", target.url, "--json"]);
			expect(first.code).toBe(0);
			expect(first.stderr).toContain(`migrate: 1/1 ${id}: 2 record(s) copied`);
			expect(JSON.parse(first.stdout)).toMatchObject({ sessions: 1, copied: 2, verified: 2, failed: 0 });
			const listed = JSON.parse(await ok(["--store", target.url, "list", "--json"])) as SessionMetadata[];
			expect(listed.map((session) => [session.id, session.name])).toEqual([[id, "moving"]]);
			const again = JSON.parse(await ok(["migrate", "--from", home, "--to", target.url, "--json"]));
			expect(again).toEqual({
				sessions: 1,
				copied: 0,
				verified: 2,
				failed: 0,
				report: [{ sessionId: id, status: "complete", copied: 0, verified: 2 }],
			});
		} finally {
			await target.drop();
		}
	});

	it("migrate goes on past a session it cannot copy, reports it, exits 1, and leaves no placeholder of it", async () => {
		const home = await tempHome();
		const target = await createTestDatabase(server as string, "agent_cli_migrate");
		try {
			const broken = (await ok(["--home", home, "create", "--name", "broken"])).trim();
			await ok(["--home", home, "append", broken], { input: jsonl(userBody("q"), assistantBody("a"), userBody("q2")) });
			const fine = (await ok(["--home", home, "create", "--name", "fine"])).trim();
			await ok(["--home", home, "append", fine], { input: jsonl(userBody("q"), assistantBody("a")) });
			// A damaged line in the middle of the broken session, not acknowledged by repair.
			const log = `${home}/sessions/${broken}/session.jsonl`;
			const { readFile, writeFile } = await import("node:fs/promises");
			const lines = (await readFile(log, "utf8")).split("\n");
			lines[1] = "x".repeat(Buffer.byteLength(lines[1] ?? ""));
			await writeFile(log, lines.join("\n"));
			const result = await runCli(["migrate", "--from", home, "--to", target.url, "--json"]);
			expect(result.code).toBe(1);
			expect(result.stderr).toContain(`${broken}: NOT COPIED (INVALID_RECORD)`);
			const report = JSON.parse(result.stdout) as {
				failed: number;
				report: Array<{ sessionId: string; status: string }>;
			};
			expect(report.failed).toBe(1);
			expect(report.report.map((entry) => [entry.sessionId, entry.status]).sort()).toEqual(
				[
					[broken, "failed"],
					[fine, "copied"],
				].sort(),
			);
			const listed = JSON.parse(await ok(["--store", target.url, "list", "--json"])) as SessionMetadata[];
			expect(listed.map((session) => session.id)).toEqual([fine]);
			// Repaired, the rest is copied by the next run (its gap acknowledged).
			await ok(["--home", home, "verify", "--repair", broken]).catch(() => "");
			const again = await runCli(["migrate", "--from", home, "--to", target.url, "--json"]);
			expect(again.code).toBe(0);
			expect(JSON.parse(again.stdout)).toMatchObject({ failed: 0 });
		} finally {
			await target.drop();
		}
	});

	it("an unknown scheme is refused with what to use instead", async () => {
		const result = await runCli(["--store", "mysql://x/y", "list"]);
		expect(result.code).not.toBe(0);
		expect(result.stderr).toContain("postgres://");
	});
});

describe("config.yaml's store:, read as the runtime reads it", () => {
	/** The ids `list` shows from a home with this config.yaml. */
	async function listedWith(home: ReturnType<typeof cliAt>, config: string): Promise<string[]> {
		fs.writeFileSync(path.join(home.home, "config.yaml"), config);
		return (await home.json<SessionMetadata[]>(["list"])).map((session) => session.id);
	}

	it("a read command opens the store config.yaml names, however the YAML spells the key", async () => {
		const home = cliAt(await tempHome());
		const elsewhere = cliAt(await tempHome());
		const id = await elsewhere.create("--name", "elsewhere");
		await home.create("--name", "at home");
		for (const text of [
			`store: ${elsewhere.home}\n`,
			`"store": ${JSON.stringify(elsewhere.home)}\n`,
			`{ store: ${elsewhere.home} }\n`,
			`durability: write\nstore:   ${elsewhere.home}  # the sessions live there\n`,
		]) {
			expect(await listedWith(home, text), text).toEqual([id]);
			const shown = await home.ok(["show", id]);
			expect(shown, text).toContain("elsewhere");
		}
	});

	it("a config.yaml that names no store keeps the home (store: in a comment or inside a value names none)", async () => {
		const home = cliAt(await tempHome());
		const id = await home.create("--name", "at home");
		for (const text of [
			"durability: write\n",
			"# store: /nowhere\ndurability: write\n",
			"default_model: |\n  store: x\n",
		]) {
			expect(await listedWith(home, text), text).toEqual([id]);
		}
	});
});
