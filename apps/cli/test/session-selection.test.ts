import type { SessionMetadata } from "@agent/session-format";
import { createFileStore } from "@agent/session-fs";
import { describe, expect, it } from "vitest";
import { cliAt, jsonl, runCli, tempHome, userBody } from "./cli-harness.js";

type Metadata = SessionMetadata;

describe("naming a session: unique id prefixes and --last", () => {
	it("a unique prefix (any case) names the session; one that matches none exits 1, an ambiguous one exits 2 listing the candidates", async () => {
		const cli = cliAt(await tempHome());
		const ids: string[] = [];
		for (let i = 0; i < 3; i++) ids.push(await cli.create("--name", `s${i}`));
		const [a] = ids as [string];
		// Ids made in a row share their time prefix: the shortest prefix that tells them apart.
		const unique = ids.map((id) => {
			let length = 1;
			while (ids.filter((other) => other.startsWith(id.slice(0, length))).length > 1) length++;
			return id.slice(0, length);
		});
		const shown = await cli.json<Array<{ seq: number }>>(["show", (unique[0] as string).toLowerCase()]);
		expect(shown).toEqual([]);
		const meta = await cli.ok(["show", unique[0] as string]);
		expect(meta).toContain(a);

		const common = a.slice(0, 6);
		expect(ids.every((id) => id.startsWith(common))).toBe(true);
		const ambiguous = await cli(["show", common]);
		expect(ambiguous.code).toBe(2);
		for (const id of ids) expect(ambiguous.stderr).toContain(id);
		expect(ambiguous.stderr).toContain("give more of the id");

		const none = await cli(["show", "7ZZZ"]);
		expect(none.code).toBe(1);
		expect(none.stderr).toContain("no session id starts with 7ZZZ");
	});

	it("--last stands for the newest session wherever an id goes", async () => {
		const cli = cliAt(await tempHome());
		await cli.create("--name", "older");
		const newer = await cli.create("--name", "newer");
		await cli.ok(["append", "--last"], { input: jsonl(userBody("latest words")) });
		await cli.ok(["name", "--last", "renamed"]);
		const metadata = await cli.json<Metadata[]>(["list"]);
		expect(metadata.find((session) => session.id === newer)?.name).toBe("renamed");
		expect(await cli.ok(["tail", "--last"])).toContain("latest words");

		const empty = cliAt(await tempHome());
		const result = await empty(["show", "--last"]);
		expect(result.code).toBe(1);
		expect(result.stderr).toContain("there are no sessions yet");
	});
});

describe("show ranges", () => {
	it("--from/--to print a range of seqs, --last N the last N records (of the newest session without an id)", async () => {
		const cli = cliAt(await tempHome());
		const id = await cli.create();
		await cli.ok(["append", id], { input: jsonl(...[1, 2, 3, 4, 5].map((n) => userBody(`message ${n}`))) });
		const seqs = async (args: string[]) =>
			(await cli.json<Array<{ seq: number }>>(["show", ...args])).map((r) => r.seq);
		expect(await seqs([id, "--from", "2", "--to", "4"])).toEqual([2, 3, 4]);
		expect(await seqs([id, "--from", "4"])).toEqual([4, 5]);
		expect(await seqs([id, "--to", "2"])).toEqual([1, 2]);
		expect(await seqs([id, "--last", "2"])).toEqual([4, 5]);
		expect(await seqs(["--last", "3"])).toEqual([3, 4, 5]);
		const text = await cli.ok(["show", id, "--from", "5"]);
		expect(text).toContain("message 5");
		expect(text).not.toContain("message 4");
		expect((await cli(["show", id, "--last", "2", "--from", "1"])).code).toBe(2);
		expect((await cli(["show", id, "--tree", "--from", "1"])).code).toBe(2);
	});
});

describe("list: projects and first messages", () => {
	it("--cwd keeps the sessions that record that directory; unnamed sessions show their first message", async () => {
		const home = await tempHome();
		const store = createFileStore({ home });
		const here = await store.create({ cwd: "/work/project-a" });
		const there = await store.create({ cwd: "/work/project-b" });
		await store.append(here.id, [
			{ recordType: "message", role: "user", content: [{ type: "text", text: "  fix the\n flaky   login test " }] },
		]);
		const cli = cliAt(home);
		expect((await cli.json<Metadata[]>(["list", "--cwd", "/work/project-b"])).map((s) => s.id)).toEqual([there.id]);
		expect((await cli.json<Metadata[]>(["list", "--cwd", "/work/project-a/"])).map((s) => s.id)).toEqual([here.id]);
		const table = await cli.ok(["list"]);
		expect(table).toContain("fix the flaky login test");
		expect(table).toContain("(unnamed)");
	});
});

describe("errors with --json", () => {
	it("are one JSON object on stderr with the code, and the exit codes of the text errors", async () => {
		const cli = cliAt(await tempHome());
		const missing = await cli(["show", "01ARZ3NDEKTSV4RRFFQ69G5FAV", "--json"]);
		expect(missing.code).toBe(1);
		expect(missing.stdout).toBe("");
		const body = JSON.parse(missing.stderr) as { error: { code: string; message: string } };
		expect(body.error.code).toBe("SESSION_NOT_FOUND");
		expect(body.error.message).toContain("01ARZ3NDEKTSV4RRFFQ69G5FAV");

		const usage = await cli(["list", "--bogus", "--json"]);
		expect(usage.code).toBe(2);
		expect((JSON.parse(usage.stderr) as { error: { code: string } }).error.code).toBe("USAGE");

		const invalid = await cli(["show", "not-an-id!", "--json"]);
		expect(invalid.code).toBe(2);
		expect((JSON.parse(invalid.stderr) as { error: { code: string } }).error.code).toBe("INVALID_SESSION_ID");
	});
});

describe("--version", () => {
	it("prints the package version and nothing else", async () => {
		const result = await runCli(["--version"]);
		expect(result.code).toBe(0);
		expect(result.stdout).toMatch(/^\d+\.\d+\.\d+\S*\n$/);
	});
});
