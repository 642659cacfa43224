import { existsSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { crc32 } from "node:zlib";
import { newSessionId, type SessionMetadata, summarizeSessions } from "@agent/session-format/reading";
import { newMetadata } from "@agent/session-format/store-kit";
import { describe, expect, it } from "vitest";
import { ListedSession } from "./listed-session.js";
import { MetadataCache } from "./metadata-cache.js";
import { loadSnapshot, snapshotBytes } from "./metadata-snapshot.js";
import { metadataSnapshotPath } from "./paths.js";
import { createFileStore } from "./store.js";
import { userMessage, useTempStores } from "./test-home.js";

const setup = useTempStores();
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** A snapshot's text with `body` and the header's checksum made to match it. */
function withChecksum(header: string, body: string): string {
	return `${header.replace(/"crc32":\d+/, `"crc32":${crc32(body)}`)}\n${body}`;
}

/** A snapshot on disk holding one entry for `file`, with the file's identity and `metadata`. */
function writeSnapshotFor(path: string, file: string, metadata: object): void {
	const stat = statSync(file);
	const identity = { ino: stat.ino, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs, size: stat.size };
	writeFileSync(
		path,
		snapshotBytes({ entries: [{ identity, session: ListedSession.of(metadata as SessionMetadata) }] }),
	);
}

describe("the listing's metadata snapshot", () => {
	it("is written after a listing, and a new store's first listing gives the same sessions", async () => {
		const { home, store } = setup();
		for (const name of ["a", "b", "c"]) {
			const { id } = await store.create({ name });
			await store.append(id, [userMessage(`hello ${name}`)]);
		}
		const first = await store.list();
		await nextTurn();
		const snapshot = loadSnapshot(metadataSnapshotPath(home));
		expect([...snapshot.entries.keys()].sort()).toEqual(first.sessions.map((s) => s.id).sort());
		expect((await createFileStore({ home }).list()).sessions).toEqual(first.sessions);
	});

	it("gives back any text: accents, emoji, line and paragraph separators, lone surrogates", async () => {
		const { home, store } = setup();
		const names = ["café…", "😀 smile", "\u2028\u2029\u0085", "日本語", "half \ud800 a pair"];
		for (const name of names.slice(0, -1)) await store.create({ name });
		// A lone surrogate is refused by create now; a session copied from a log written before holds one.
		const id = newSessionId();
		await store.adoptSession(id, newMetadata(id, { name: "half \ud800 a pair" }, new Date()));
		const first = await store.list();
		await nextTurn();
		// The header, the index, and the sessions as a JSON array's elements, in listing order:
		// nothing in the text breaks a line.
		const lines = readFileSync(metadataSnapshotPath(home), "utf8").split("\n");
		expect(lines).toHaveLength(3);
		expect(JSON.parse(`[${lines[2]}]`)).toEqual(first.sessions);
		const again = await createFileStore({ home }).list();
		expect(again.sessions).toEqual(first.sessions);
		expect(again.sessions.map((session) => session.name).sort()).toEqual([...names].sort());
		// Served from the snapshot, not from the metadata.json files.
		expect(loadSnapshot(metadataSnapshotPath(home)).entries.size).toBe(names.length);
	});

	it("serves an entry only while its metadata.json is the file it was read from", async () => {
		const { home, store } = setup();
		const { id } = await store.create({ name: "on disk" });
		const file = store.pathsOf(id).metadata;
		const onDisk = JSON.parse(readFileSync(file, "utf8"));
		const snapshotPath = metadataSnapshotPath(home);
		await store.list();
		await nextTurn();
		// An entry that matches the file's identity is served without reading the file: the name
		// planted in the snapshot shows it was.
		writeSnapshotFor(snapshotPath, file, { ...onDisk, name: "from the snapshot" });
		expect(new MetadataCache(snapshotPath).read(file, id)?.metadata.name).toBe("from the snapshot");
		// Touched (new times): the file is read again.
		utimesSync(file, new Date(), new Date(Date.now() + 5000));
		expect(new MetadataCache(snapshotPath).read(file, id)?.metadata.name).toBe("on disk");
	});

	it("follows appends, renames and deletes made by other stores", async () => {
		const { home, store } = setup();
		const kept = await store.create({ name: "kept" });
		const gone = await store.create({ name: "gone" });
		await store.list();
		await nextTurn();
		const other = createFileStore({ home });
		await other.append(kept.id, [userMessage("one"), userMessage("two")]);
		await other.rename(kept.id, "renamed");
		await other.delete(gone.id);
		const listed = await createFileStore({ home }).list();
		expect(listed.sessions.map((s) => [s.name, s.lastSeq])).toEqual([["renamed", 3]]);
		await nextTurn();
		expect([...loadSnapshot(metadataSnapshotPath(home)).entries.keys()]).toEqual([kept.id]);
	});

	it("is ignored when damaged or of another format, and entries without a session id are dropped", async () => {
		const { home, store } = setup();
		const { id } = await store.create({ name: "real" });
		const snapshotPath = metadataSnapshotPath(home);
		await store.list();
		await nextTurn();
		const file = store.pathsOf(id).metadata;
		const good = readFileSync(snapshotPath, "utf8");
		expect(loadSnapshot(snapshotPath).entries.size).toBe(1);
		const header = good.slice(0, good.indexOf("\n"));
		const body = good.slice(good.indexOf("\n") + 1);
		const damaged = [
			"",
			"{not json",
			header,
			`${header}\n${body.replace('"real"', '"evil"')}`, // the checksum no longer matches
			`${header.replace('"format":8', '"format":7')}\n${body}`,
			withChecksum(header, `${body} `), // a line longer than its index entry says
			withChecksum(header, body.slice(0, body.indexOf("\n"))), // the index without the session's line
			`${header.replace('"fields":"id,', '"fields":"')}\n${body}`,
			good.slice(0, -5),
		];
		for (const text of damaged) {
			writeFileSync(snapshotPath, text);
			expect(loadSnapshot(snapshotPath).entries.size).toBe(0);
			expect((await createFileStore({ home }).list()).sessions.map((s) => s.name)).toEqual(["real"]);
		}
		writeSnapshotFor(snapshotPath, file, { ...JSON.parse(readFileSync(file, "utf8")), id: "../../etc" });
		expect(loadSnapshot(snapshotPath).entries.size).toBe(0);
		expect((await createFileStore({ home }).list()).sessions.map((s) => s.name)).toEqual(["real"]);
	});

	it("a listing that changed nothing does not rewrite it; one that read files does", async () => {
		const { home, store } = setup();
		const { id } = await store.create({ name: "one" });
		const snapshotPath = metadataSnapshotPath(home);
		expect(existsSync(snapshotPath)).toBe(false);
		await store.list();
		await nextTurn();
		// The first listing made the cache directory; the second puts the store's change mark in it
		// and records it (metadata-changes.test.ts): from then on, a listing of an unchanged store writes nothing.
		await createFileStore({ home }).list();
		await nextTurn();
		const written = statSync(snapshotPath);
		await createFileStore({ home }).list();
		await nextTurn();
		expect(statSync(snapshotPath).ino).toBe(written.ino);
		await store.append(id, [userMessage("more")]);
		await createFileStore({ home }).list();
		await nextTurn();
		expect(statSync(snapshotPath).ino).not.toBe(written.ino);
	});

	it("listAsJson gives each session as JSON.stringify writes list()'s, read from the files or from the snapshot", async () => {
		const { home, store } = setup();
		const names = ["plain", "café…", "😀 smile", "\u2028 separator", 'a "quote", a \\ and a \\u0041'];
		for (const name of names) {
			const { id } = await store.create({ name });
			await store.append(id, [userMessage(`hello ${name}`)]);
		}
		await store.archive((await store.list()).sessions[1]?.id as string);
		for (const options of [{ archived: true }, {}, { archived: "only" as const }, { limit: 2 }, { search: "SMILE" }]) {
			const expected = await store.list(options);
			const fromFiles = await store.listAsJson(options);
			await nextTurn();
			const fromSnapshot = await createFileStore({ home }).listAsJson(options);
			for (const page of [fromFiles, fromSnapshot]) {
				const texts = page.sessions.map((bytes) => new TextDecoder("utf-8", { fatal: true }).decode(bytes));
				expect(texts).toEqual(expected.sessions.map((session) => JSON.stringify(session)));
				expect(page.nextCursor).toBe(expected.nextCursor);
			}
		}
	});

	it("summarize gives summarizeSessions of every session in list order: from the files, the snapshot, and after changes", async () => {
		const { home, store } = setup();
		const reply = (model: string, cost: number) => ({
			recordType: "message" as const,
			role: "assistant" as const,
			content: [{ type: "text" as const, text: "ok" }],
			provider: "p",
			model,
			usage: {
				input: 3,
				output: 5,
				cacheRead: 1,
				cacheWrite: 0,
				totalTokens: 9,
				cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: cost },
			},
		});
		// Costs whose sum depends on the order they are added in (0.1 + 0.2 + 0.3 is not 0.3 + 0.2 + 0.1).
		const ids: string[] = [];
		for (const [model, cost] of [
			["a", 0.1],
			["b", 0.2],
			["a", 0.3],
			["c", 1e-17],
		] as const) {
			const { id } = await store.create();
			await store.append(id, [userMessage(`for ${model}`), reply(model, cost)]);
			ids.push(id);
		}
		await store.archive(ids[1] as string);
		const expected = async () => summarizeSessions((await store.list({ archived: true })).sessions);
		// Listings that leave nothing to check (the mark and the directory as the last one found
		// them): the sum a summarize makes then is still kept for the next process.
		for (let i = 0; i < 2; i++) {
			await createFileStore({ home }).list();
			await nextTurn();
		}
		expect(await store.summarize()).toEqual(await expected());
		await nextTurn();
		const index = JSON.parse(readFileSync(metadataSnapshotPath(home), "utf8").split("\n")[1] as string);
		expect(index.stats).toEqual(await expected());
		expect(await createFileStore({ home }).summarize()).toEqual(await expected());
		await store.append(ids[0] as string, [reply("d", 2.5)]);
		await store.delete(ids[2] as string);
		const fresh = createFileStore({ home });
		expect(await fresh.summarize()).toEqual(await expected());
		expect((await fresh.summarize()).byModel["p/d"]?.cost).toBe(2.5);
		// What a caller does with its copy is not what the next caller gets.
		const copy = await fresh.summarize();
		copy.sessions = -1;
		expect((await fresh.summarize()).sessions).toBe(3);
	});
});
