import { execFileSync } from "node:child_process";
import {
	appendFileSync,
	existsSync,
	lstatSync,
	mkdirSync,
	readdirSync,
	readFileSync,
	renameSync,
	statSync,
	symlinkSync,
	truncateSync,
	unlinkSync,
	writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { userMessage, useTempStores } from "./test-home.js";

const setup = useTempStores();

/** Every file and directory under `dir`, with its permission bits. */
function modesUnder(dir: string): Array<{ path: string; mode: number; directory: boolean }> {
	const out: Array<{ path: string; mode: number; directory: boolean }> = [];
	for (const name of readdirSync(dir)) {
		const path = join(dir, name);
		const stats = lstatSync(path);
		out.push({ path, mode: stats.mode & 0o777, directory: stats.isDirectory() });
		if (stats.isDirectory()) out.push(...modesUnder(path));
	}
	return out;
}

describe("transcripts are private: files 0600 and directories 0700 whatever the umask", () => {
	let umask: number;
	beforeEach(() => {
		umask = process.umask(0o022);
	});
	afterEach(() => {
		process.umask(umask);
	});

	it("under umask 022, every file and directory the store makes (log, metadata, cache, torn tails, lease lock, turn journal) is private", async () => {
		const { store, home } = setup({ metadataFlushMs: 0 });
		const { id } = await store.create({ name: "secret" });
		await store.append(id, [userMessage("my password is hunter2")]);
		// Held while the modes are read: the lease's lock directory and holder entry, and a journaled turn.
		const lease = await store.lease(id);
		await store.noteAcceptedTurn(id, { turnId: "t1", acceptedAt: new Date().toISOString(), content: [] });
		const held = modesUnder(store.pathsOf(id).dir);
		await lease.release();
		expect(held.map((entry) => entry.path)).toEqual(
			expect.arrayContaining([store.pathsOf(id).lockDir, join(store.pathsOf(id).dir, "accepted", "t1.json")]),
		);
		for (const entry of held) {
			expect({ path: entry.path, mode: entry.mode.toString(8) }).toEqual({
				path: entry.path,
				mode: entry.directory ? "700" : "600",
			});
		}
		// A torn tail, cut off into torn-tails.bin by the next writer.
		appendFileSync(store.pathsOf(id).log, '{"recordType":"mess');
		await store.append(id, [userMessage("again")]);
		await store.fork(id);
		await store.list();
		await new Promise((resolve) => setImmediate(resolve)); // the listing writes its snapshot after answering
		const entries = modesUnder(home);
		expect(entries.map((entry) => entry.path)).toEqual(
			expect.arrayContaining([
				join(home, "sessions"),
				store.pathsOf(id).log,
				store.pathsOf(id).metadata,
				store.pathsOf(id).tornTails,
				join(home, "cache", "metadata-snapshot.json"),
			]),
		);
		for (const entry of entries) {
			expect({ path: entry.path, mode: entry.mode.toString(8) }).toEqual({
				path: entry.path,
				mode: entry.directory ? "700" : "600",
			});
		}
	});

	it("a log made readable by others (an older version, a careless copy) is made private by its next writer", async () => {
		const { store } = setup();
		const { id } = await store.create();
		await store.append(id, [userMessage("a")]);
		execFileSync("chmod", ["644", store.pathsOf(id).log]);
		await store.append(id, [userMessage("b")]);
		expect((statSync(store.pathsOf(id).log).mode & 0o777).toString(8)).toBe("600");
	});
});

describe("the store never follows a planted symbolic link and never reads what is not a regular file", () => {
	it("a symlinked session.jsonl is refused with a clear error; its target is neither appended to nor cut", async () => {
		const { store, home } = setup();
		const { id } = await store.create();
		await store.append(id, [userMessage("a")]);
		const paths = store.pathsOf(id);
		const target = join(home, "elsewhere.txt");
		writeFileSync(target, "precious\nlast line without newline");
		unlinkSync(paths.log);
		symlinkSync(target, paths.log);
		await expect(store.append(id, [userMessage("b")])).rejects.toThrow(/symbolic link, not a regular file/);
		await expect(store.open(id)).rejects.toThrow(/symbolic link/);
		expect(readFileSync(target, "utf8")).toBe("precious\nlast line without newline");
	});

	it("a session directory that is a symbolic link is reported by verify and never written through", async () => {
		const { store, home } = setup();
		const { id } = await store.create();
		await store.append(id, [userMessage("a")]);
		const paths = store.pathsOf(id);
		const real = join(home, "moved-away");
		renameSync(paths.dir, real);
		symlinkSync(real, paths.dir);
		const before = readFileSync(join(real, "session.jsonl"), "utf8");
		await expect(store.append(id, [userMessage("b")])).rejects.toThrow(/is a symbolic link/);
		await expect(store.open(id)).rejects.toThrow(/is a symbolic link/);
		expect(readFileSync(join(real, "session.jsonl"), "utf8")).toBe(before);
		const [report] = await store.verify(id);
		expect(report?.ok).toBe(false);
		expect(report?.problems.map((p) => p.kind)).toEqual(["not_a_regular_file"]);
		expect((await store.verify()).map((r) => r.problems[0]?.kind)).toEqual(["not_a_regular_file"]);
		expect((await store.list()).sessions).toEqual([]);
	});

	it("metadata.json linked to /dev/zero, or a FIFO, or a giant file costs a rebuild from the log, never the memory or a hang", async () => {
		const { store } = setup();
		const ids: string[] = [];
		for (let i = 0; i < 3; i++) {
			const { id } = await store.create();
			await store.append(id, [userMessage(`m${i}`)]);
			ids.push(id);
		}
		const [zero, fifo, giant] = ids.map((id) => store.pathsOf(id).metadata) as [string, string, string];
		unlinkSync(zero);
		symlinkSync("/dev/zero", zero);
		unlinkSync(fifo);
		execFileSync("mkfifo", [fifo]);
		// 400 MB, sparse: nothing is allocated unless it is read.
		truncateSync(giant, 400 << 20);
		const listed = (await store.list()).sessions;
		expect(listed.map((s) => s.id).sort()).toEqual([...ids].sort());
		for (const metadata of listed) expect(metadata.messageCount).toBe(1);
		expect(process.memoryUsage().rss).toBeLessThan(1 << 30);
		// Each is reported by verify and replaced (never written through) by repair.
		for (const id of ids) {
			const [report] = await store.verify(id);
			expect(report?.problems.map((p) => p.kind)).toEqual(["metadata_drift"]);
			await store.repair(id);
			expect(lstatSync(store.pathsOf(id).metadata).isFile()).toBe(true);
		}
		expect(lstatSync("/dev/zero").isCharacterDevice()).toBe(true);
	});

	it("a cache snapshot that is a symbolic link or too large is ignored, and replaced by a real file", async () => {
		const { store, home } = setup();
		const { id } = await store.create();
		await store.append(id, [userMessage("a")]);
		mkdirSync(join(home, "cache"), { recursive: true });
		const snapshot = join(home, "cache", "metadata-snapshot.json");
		symlinkSync("/dev/zero", snapshot);
		expect((await store.list()).sessions.map((s) => s.id)).toEqual([id]);
		await new Promise((resolve) => setImmediate(resolve));
		expect(lstatSync(snapshot).isFile()).toBe(true);
		expect(existsSync("/dev/zero")).toBe(true);
	});
});
