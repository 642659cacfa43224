import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { recordLine, type StoredRecord } from "@agent/session-format";
import { describe, expect, it } from "vitest";
import { createFileStore } from "./store.js";
import { sha256, userMessage, useTempStores } from "./test-home.js";

const setup = useTempStores();
const user = userMessage;
const sha = sha256;

async function readAll(store: ReturnType<typeof setup>["store"], id: string): Promise<StoredRecord[]> {
	const out: StoredRecord[] = [];
	for await (const record of store.read(id)) out.push(record);
	return out;
}

describe("the on-disk layout", () => {
	it("S7.1: create makes <home>/sessions/<id>/ with an empty session.jsonl and a metadata.json", async () => {
		const { store, home } = setup();
		const { id } = await store.create({ name: "first" });
		const dir = join(home, "sessions", id);
		expect(readdirSync(dir).sort()).toEqual(["metadata.json", "session.jsonl"]);
		expect(statSync(join(dir, "session.jsonl")).size).toBe(0);
		const metadata = JSON.parse(readFileSync(join(dir, "metadata.json"), "utf8"));
		expect(metadata).toMatchObject({ id, name: "first", lastSeq: 0, logBytes: 0, messageCount: 0 });
	});

	it("home is the option, else $AGENT_HOME", async () => {
		const { home } = setup();
		const previous = process.env.AGENT_HOME;
		process.env.AGENT_HOME = home;
		try {
			const store = createFileStore();
			expect(store.home).toBe(home);
			const { id } = await store.create();
			expect(existsSync(join(home, "sessions", id, "session.jsonl"))).toBe(true);
		} finally {
			if (previous === undefined) delete process.env.AGENT_HOME;
			else process.env.AGENT_HOME = previous;
		}
	});

	it("a missing session's error names the id, never the store's directory (it reaches API clients)", async () => {
		const { store, home } = setup();
		const { id } = await store.create();
		await store.delete(id);
		const attempts: Array<() => Promise<unknown>> = [
			() => store.metadata(id),
			() => store.open(id),
			() => store.append(id, [user("x")]),
			() => store.lease(id),
			() => store.verify(id),
			async () => {
				for await (const _ of store.read(id)) break;
			},
		];
		for (const attempt of attempts) {
			const error = (await attempt().then(
				() => undefined,
				(caught: unknown) => caught,
			)) as Error & { code?: string };
			expect(error?.code).toBe("SESSION_NOT_FOUND");
			expect(error.message).toContain(id);
			expect(error.message).not.toContain(home);
		}
	});

	it("each record is exactly one line: the serialized record and an LF, in seq order", async () => {
		const { store, home } = setup();
		const { id } = await store.create();
		const { records } = await store.append(id, [user("a"), user("b\nwith newline"), user("c \u2028")]);
		const text = readFileSync(join(home, "sessions", id, "session.jsonl"), "utf8");
		expect(text).toBe(records.map(recordLine).join(""));
		expect(text.split("\n")).toHaveLength(4);
	});

	it("S7.2 and S7.6: appends, compactions and every other operation only ever add bytes at the end — same inode, earlier bytes unchanged", async () => {
		const { store, home } = setup();
		const { id } = await store.create();
		const log = join(home, "sessions", id, "session.jsonl");
		const inode = statSync(log).ino;
		let previous = readFileSync(log);
		const check = async (what: string) => {
			const now = readFileSync(log);
			expect(statSync(log).ino, what).toBe(inode);
			expect(now.length, what).toBeGreaterThanOrEqual(previous.length);
			expect(sha(now.subarray(0, previous.length)), what).toBe(sha(previous));
			previous = now;
		};
		await store.append(id, [user("one"), user("two")]);
		await check("append");
		await store.append(id, [
			{ recordType: "compaction", firstKeptSeq: 2, summary: "S", tokensBefore: 10, readFiles: [], modifiedFiles: [] },
		]);
		await check("compaction (S7.6)");
		expect(readFileSync(log, "utf8").trimEnd().split("\n").pop()).toContain('"recordType":"compaction"');
		await store.rename(id, "renamed");
		await check("rename");
		await store.label(id, 1, "first");
		await check("label");
		await store.branch(id, 1);
		await check("branch");
		await store.append(id, [user("branch")]);
		await check("append after branch");
		await store.archive(id);
		await store.unarchive(id);
		await store.addUptime(id, 5);
		await check("metadata-only operations");
		await store.fork(id, { atSeq: 3 });
		await store.verify(id);
		await store.repair(id);
		await check("fork, verify, repair");
		const lease = await store.lease(id);
		await lease.append([user("leased")]);
		await lease.release();
		await check("lease");
		await expect(store.append(id, [user("ok"), { recordType: "message" } as never])).rejects.toThrow();
		await check("rejected batch");
		expect(previous.length).toBe(statSync(log).size);
	});

	it("metadata.json is replaced atomically: no temp file is left behind", async () => {
		const { store, home } = setup({ metadataFlushMs: 0 });
		const { id } = await store.create();
		for (let i = 0; i < 20; i++) await store.append(id, [user(String(i))]);
		await store.archive(id);
		expect(readdirSync(join(home, "sessions", id)).sort()).toEqual(["metadata.json", "session.jsonl"]);
	});

	it("a deferred session writes nothing until its first assistant message", async () => {
		const { store, home } = setup();
		const { id } = await store.create({ deferred: true });
		const dir = join(home, "sessions", id);
		await store.append(id, [user("anyone there?")]);
		expect(existsSync(dir)).toBe(false);
		await store.append(id, [{ recordType: "message", role: "assistant", content: [{ type: "text", text: "yes" }] }]);
		expect(readdirSync(dir).sort()).toEqual(["metadata.json", "session.jsonl"]);
		expect((await readAll(store, id)).map((r) => r.seq)).toEqual([1, 2]);
		await expect(createFileStore({ home }).metadata(id)).resolves.toMatchObject({ lastSeq: 2, messageCount: 2 });
	});

	it("a malformed id never reaches the filesystem", async () => {
		const { store, home } = setup();
		await store.create();
		const before = readdirSync(join(home, "sessions")).sort();
		for (const bad of ["../escape", "..", "/etc", "01ARZ3NDEKTSV4RRFFQ69G5FA/../x"]) {
			await expect(store.append(bad, [user("x")])).rejects.toMatchObject({ code: "INVALID_SESSION_ID" });
			await expect(store.delete(bad)).rejects.toMatchObject({ code: "INVALID_SESSION_ID" });
		}
		expect(readdirSync(join(home, "sessions")).sort()).toEqual(before);
		expect(readdirSync(home)).toEqual(["sessions"]);
	});
});
