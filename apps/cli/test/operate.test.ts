import fs from "node:fs/promises";
import path from "node:path";
import type { SessionMetadata, VerifyReport } from "@agent/session-format";
import { createTestDatabase, findTestPostgres, type TestDatabase } from "@agent/session-pg/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanEnv, cliAt, jsonl, runCli, startCli, tempHome, userBody } from "./cli-harness.js";

const server = await findTestPostgres();

describe("backup", () => {
	it("copies a live store while `append` processes write: verify passes on the copy, and every record acknowledged before the backup is in it", async () => {
		const cli = cliAt(await tempHome());
		await fs.writeFile(path.join(cli.home, "config.yaml"), "default_model: demo\n");
		const ids = [await cli.create("--name", "one"), await cli.create("--name", "two")];
		const archived = await cli.create("--name", "archived");
		await cli.ok(["append", archived], { input: jsonl(userBody("old")) });
		await cli.ok(["archive", archived]);
		// Each writer appends record by record, printing each seq once it is in the log, and is fed a
		// new record for every seq it prints (a few ahead) until the backup is done: it is writing
		// throughout the backup.
		let feeding = true;
		const writers = ids.map((id, n) => {
			const writer = startCli(["--home", cli.home, "append", id]);
			let sent = 0;
			const feed = () => {
				if (feeding)
					writer.child.stdin.write(jsonl(userBody(`writer ${n} record ${sent++} ${"x".repeat(20_000 * (n + 1))}`)));
			};
			for (let i = 0; i < 4; i++) feed();
			writer.child.stdout.on("data", (chunk: Buffer | string) => {
				for (const _ of chunk.toString().matchAll(/\n/g)) feed();
			});
			return writer;
		});
		await Promise.all(writers.map((writer) => writer.waitFor(/^50$/m)));
		const acknowledged = writers.map((writer) => Math.max(...writer.output().trim().split("\n").map(Number)));

		const to = path.join(await tempHome(), "backup");
		const report = JSON.parse(await cli.ok(["backup", "--to", to, "--json"])) as {
			sessions: Array<{ sessionId: string; records: number; ok: boolean }>;
			files: string[];
			withProblems: number;
		};
		expect(writers.map((writer) => writer.child.exitCode)).toEqual([null, null]);
		expect(report.files).toEqual(["config.yaml"]);
		expect(report.withProblems).toBe(0);
		expect(report.sessions.map((session) => session.sessionId).sort()).toEqual([...ids, archived].sort());

		const copy = cliAt(to);
		const verified = await copy.json<VerifyReport[]>(["verify"]);
		expect(verified.filter((one) => !one.ok || one.problems.length > 0)).toEqual([]);
		for (const [n, id] of ids.entries()) {
			const records = await copy.json<Array<{ seq: number; content: Array<{ text: string }> }>>(["show", id]);
			expect(records.length).toBeGreaterThanOrEqual(acknowledged[n] as number);
			expect(records.map((record) => record.seq)).toEqual(records.map((_, i) => i + 1));
			expect(records[(acknowledged[n] as number) - 1]?.content[0]?.text).toMatch(
				new RegExp(`^writer ${n} record ${(acknowledged[n] as number) - 1} `),
			);
		}
		expect(
			(await copy.json<SessionMetadata[]>(["list", "--all"])).find((s) => s.id === archived)?.archivedAt,
		).toBeDefined();
		expect(await fs.readFile(path.join(to, "config.yaml"), "utf8")).toBe("default_model: demo\n");
		feeding = false;
		for (const writer of writers) writer.child.stdin.end();
		for (const writer of writers) expect((await writer.done).code).toBe(0);
	}, 120_000);

	it("refuses a target that is not empty, and a PostgreSQL store, saying what to use instead", async () => {
		const cli = cliAt(await tempHome());
		await cli.create();
		const full = await tempHome();
		await fs.writeFile(path.join(full, "keep"), "x");
		const refused = await cli(["backup", "--to", full]);
		expect(refused.code).toBe(1);
		expect(refused.stderr).toContain("is not an empty directory");
		expect(await fs.readdir(full)).toEqual(["keep"]);

		const pg = await cli(["--store", "postgres://nobody@127.0.0.1:1/none", "backup", "--to", path.join(full, "x")]);
		expect(pg.code).toBe(2);
		expect(pg.stderr).toContain("pg_dump -Fc");
		expect(pg.stderr).toContain("agent-sessions migrate --from DATABASE_URL --to DIR");
	});
});

/** Sessions archived at given times (an archive_change record with that timestamp, as an import writes one). */
async function archiveAt(run: (args: string[], input?: string) => Promise<string>, name: string, daysAgo: number) {
	const id = (await run(["create", "--name", name])).trim();
	const timestamp = new Date(Date.now() - daysAgo * 86_400_000).toISOString();
	await run(["append", id], jsonl(userBody(name), { recordType: "archive_change", archived: true, timestamp }));
	return id;
}

function pruneCases(store: () => { home: string; args: string[] }) {
	it("prune --archived-older-than deletes only sessions archived longer ago, --dry-run only lists them, and each is reported", async () => {
		const { home, args } = store();
		const run = async (command: string[], input?: string) => {
			const result = await runCli(["--home", home, ...args, ...command], input === undefined ? {} : { input });
			if (result.code !== 0) throw new Error(`${command.join(" ")} exited ${result.code}: ${result.stderr}`);
			return result.stdout;
		};
		const old = await archiveAt(run, "archived 100 days ago", 100);
		const recent = await archiveAt(run, "archived 10 days ago", 10);
		const live = (await run(["create", "--name", "live"])).trim();

		const dry = JSON.parse(await run(["prune", "--archived-older-than", "90d", "--dry-run", "--json"]));
		expect(dry).toMatchObject({ dryRun: true, failed: [] });
		expect(dry.sessions.map((session: { id: string }) => session.id)).toEqual([old]);
		const listed = () =>
			run(["list", "--all", "--json"]).then((out) => (JSON.parse(out) as SessionMetadata[]).map((s) => s.id).sort());
		expect(await listed()).toEqual([old, recent, live].sort());

		const text = await runCli(["--home", home, ...args, "prune", "--archived-older-than", "90d"]);
		expect(text.code).toBe(0);
		expect(text.stdout).toMatch(new RegExp(`^${old}  deleted  archived .*archived 100 days ago\\n$`));
		expect(text.stderr).toContain("1 session(s) archived before");
		expect(await listed()).toEqual([recent, live].sort());
		expect(JSON.parse(await run(["prune", "--archived-older-than", "90d", "--json"])).sessions).toEqual([]);
	});
}

describe("prune on the file store", () => {
	let home = "";
	beforeAll(async () => {
		home = await tempHome();
	});
	pruneCases(() => ({ home, args: [] }));

	it("refuses an age it cannot read, naming the flag (exit 2)", async () => {
		const result = await runCli(["--home", home, "prune", "--archived-older-than", "3 months"], { env: cleanEnv() });
		expect(result.code).toBe(2);
		expect(result.stderr).toContain(
			'--archived-older-than must be a whole number and a unit (s, m, h, d or w), such as 90d, 12h or 30m, not "3 months"',
		);
	});
});

describe.skipIf(server === undefined)("prune on PostgreSQL", () => {
	let database: TestDatabase;
	let home = "";
	beforeAll(async () => {
		database = await createTestDatabase(server as string, "agent_cli_prune");
		home = await tempHome();
	});
	afterAll(async () => {
		await database?.drop();
	});
	pruneCases(() => ({ home, args: ["--store", database.url] }));
});
