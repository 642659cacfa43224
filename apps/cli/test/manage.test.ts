import type { SessionMetadata } from "@agent/session-format";
import { beforeAll, describe, expect, it } from "vitest";
import { assistantBody, cliAt, jsonl, tempHome, ULID, userBody } from "./cli-harness.js";

let cli: ReturnType<typeof cliAt>;

beforeAll(async () => {
	cli = cliAt(await tempHome());
});

type Metadata = SessionMetadata;

async function conversation(name: string, turns: number): Promise<string> {
	const id = await cli.create("--name", name);
	const bodies = [];
	for (let i = 1; i <= turns; i++) bodies.push(userBody(`question ${i}`), assistantBody(`answer ${i}`));
	await cli.ok(["append", id], { input: jsonl(...bodies) });
	return id;
}

describe("list", () => {
	it("lists newest activity first, as a table or a JSON array; --search, --source, --limit and --all filter", async () => {
		const home = cliAt(await tempHome());
		const first = await home.create("--name", "alpha");
		const second = await home.create("--name", "beta", "--cron-job", "nightly");
		await home.ok(["append", first], { input: jsonl(userBody("bump alpha")) });

		const all = await home.json<Metadata[]>(["list"]);
		expect(all.map((session) => session.id)).toEqual([first, second]);
		const table = await home.ok(["list"]);
		expect(table.split("\n")[0]).toMatch(/^ID\s+LAST ACTIVITY/);
		expect(table).toContain("alpha");
		expect(table).toContain("cron:nightly");

		expect((await home.json<Metadata[]>(["list", "--search", "BET"])).map((s) => s.id)).toEqual([second]);
		expect((await home.json<Metadata[]>(["list", "--source", "cron"])).map((s) => s.id)).toEqual([second]);
		expect(await home.json<Metadata[]>(["list", "--limit", "1"])).toHaveLength(1);

		await home.ok(["archive", second]);
		expect((await home.json<Metadata[]>(["list"])).map((s) => s.id)).toEqual([first]);
		expect((await home.json<Metadata[]>(["list", "--all"])).map((s) => s.id).sort()).toEqual([first, second].sort());
	});

	it("says so when there are no sessions", async () => {
		const empty = cliAt(await tempHome());
		const result = await empty(["list"]);
		expect(result.code).toBe(0);
		expect(result.stdout).toBe("");
		expect(result.stderr).toContain("No sessions");
		expect(await empty.json(["list"])).toEqual([]);
	});
});

describe("name, label, archive, unarchive", () => {
	it("change the session and print its metadata with --json", async () => {
		const id = await conversation("before", 1);
		expect(await cli.ok(["name", id, "after"])).toContain("after");
		expect((await cli.json<Metadata>(["name", id, "after again"])).name).toBe("after again");

		await cli.ok(["label", id, "1", "start here"]);
		const tree = await cli.json<{ nodes: Array<{ seq: number; label: string | null }> }>(["show", id, "--tree"]);
		expect(tree.nodes.find((node) => node.seq === 1)?.label).toBe("start here");
		await cli.ok(["label", id, "1", ""]);
		const cleared = await cli.json<{ nodes: Array<{ seq: number; label: string | null }> }>(["show", id, "--tree"]);
		expect(cleared.nodes.find((node) => node.seq === 1)?.label).toBeNull();

		expect((await cli.json<Metadata>(["archive", id])).archivedAt).toBeDefined();
		expect((await cli.json<Metadata>(["unarchive", id])).archivedAt).toBeUndefined();
	});
});

describe("fork and branch", () => {
	it("fork copies the path up to --at into a new session", async () => {
		const id = await conversation("original", 2);
		const forkId = (await cli.ok(["fork", id, "--at", "2"])).trim();
		expect(forkId).toMatch(ULID);
		expect(forkId).not.toBe(id);
		const context = await cli.json<{ messages: Array<{ content: Array<{ text: string }> }> }>(["context", forkId]);
		expect(context.messages.map((message) => message.content[0]?.text)).toEqual(["question 1", "answer 1"]);
		const metadata = await cli.json<Metadata>(["fork", id, "--name", "copy"]);
		expect(metadata).toMatchObject({ name: "copy", forkedFrom: { sessionId: id } });
	});

	it("branch moves the active leaf; the next record continues from there and show --tree draws both branches", async () => {
		const id = await conversation("branching", 2);
		expect((await cli.json<Metadata>(["branch", id, "--at", "2"])).leafSeq).toBe(2);
		await cli.ok(["append", id], { input: jsonl(userBody("another way")) });
		const context = await cli.json<{ messages: Array<{ content: Array<{ text: string }> }> }>(["context", id]);
		expect(context.messages.map((message) => message.content[0]?.text)).toEqual([
			"question 1",
			"answer 1",
			"another way",
		]);

		const drawn = await cli.ok(["show", id, "--tree"]);
		expect(drawn).toContain("├─");
		expect(drawn).toContain("└─");
		expect(drawn).toMatch(/another way.*◀ active/);
		const tree = await cli.json<{
			leafSeq: number;
			nodes: Array<{ seq: number; children: number[]; onActivePath: boolean }>;
		}>(["show", id, "--tree"]);
		expect(tree.nodes.find((node) => node.seq === 2)?.children).toHaveLength(2);
		expect(tree.nodes.filter((node) => node.onActivePath).map((node) => node.seq)).toEqual([1, 2, tree.leafSeq]);
	});

	it("branch needs --at (exit 2)", async () => {
		const id = await conversation("needs at", 1);
		expect((await cli(["branch", id])).code).toBe(2);
	});
});

describe("delete", () => {
	it("refuses without --yes (exit 2) and keeps the session", async () => {
		const id = await conversation("keep me", 1);
		const result = await cli(["delete", id]);
		expect(result.code).toBe(2);
		expect(result.stderr).toContain("--yes");
		expect((await cli.json<unknown[]>(["show", id])).length).toBe(2);
	});

	it("deletes with --yes", async () => {
		const id = await conversation("delete me", 1);
		expect(await cli.json(["delete", id, "--yes"])).toEqual({ id, deleted: true });
		expect((await cli(["show", id])).code).toBe(1);
	});
});
