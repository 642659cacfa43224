import {
	existsSync,
	mkdirSync,
	readdirSync,
	readFileSync,
	renameSync,
	rmSync,
	symlinkSync,
	writeFileSync,
} from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { currentMetadataChanges, markMetadataChanged } from "./metadata-changes.js";
import { metadataChangesPath } from "./paths.js";
import { createFileStore, type FileSessionStore } from "./store.js";
import { userMessage, useTempStores } from "./test-home.js";

const setup = useTempStores();
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** More runs locally: PROPERTY_RUNS=500 pnpm vitest run src/metadata-changes.test.ts */
const RUNS = Number(process.env.PROPERTY_RUNS ?? 25);

/** A fresh store's listing (a new process's, through the snapshot on disk), once its snapshot is saved. */
async function listFresh(home: string): Promise<Array<{ id: string; name?: string; lastSeq: number }>> {
	const { sessions } = await createFileStore({ home }).list({ archived: true });
	await nextTurn();
	return sessions.map(({ id, name, lastSeq }) => ({ id, ...(name === undefined ? {} : { name }), lastSeq })).sort(byId);
}

/** What every metadata.json on disk says, read from the files themselves. */
function filesSay(home: string): Array<{ id: string; name?: string; lastSeq: number }> {
	const root = join(home, "sessions");
	if (!existsSync(root)) return [];
	return readdirSync(root)
		.filter((name) => /^[0-9A-Z]{26}$/.test(name))
		.map((id) => JSON.parse(readFileSync(join(root, id, "metadata.json"), "utf8")))
		.map(({ id, name, lastSeq }) => ({ id, ...(name === undefined ? {} : { name }), lastSeq }))
		.sort(byId);
}

function byId(a: { id: string }, b: { id: string }): number {
	return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Replaces a metadata.json by hand (as an editor would: a new file renamed over it), unknown to the store. */
function replaceByHand(store: FileSessionStore, id: string, name: string): void {
	const file = store.pathsOf(id).metadata;
	const metadata = JSON.parse(readFileSync(file, "utf8"));
	writeFileSync(`${file}.edit`, JSON.stringify({ ...metadata, name }));
	renameSync(`${file}.edit`, file);
}

describe("the store's change mark", () => {
	it("lets a listing after which nothing changed serve the next one without looking at any file", async () => {
		const { home, store } = setup();
		const a = await store.create({ name: "a" });
		const b = await store.create({ name: "b" });
		await listFresh(home); // makes the cache directory and the snapshot
		await listFresh(home); // checks every file under the mark, and says so in the snapshot
		replaceByHand(store, a.id, "edited by hand");
		// Not looked at: the snapshot is served as it is (which is why surgery calls for deleting cache/).
		expect((await listFresh(home)).map((s) => s.name)).toEqual(["a", "b"]);
		// Any change through the store marks: the next listing checks every file again, and sees the edit.
		await createFileStore({ home }).rename(b.id, "b2");
		expect((await listFresh(home)).map((s) => s.name)).toEqual(["edited by hand", "b2"]);
	});

	it("does not hide a session directory removed, restored or renamed by hand, though nothing marks those", async () => {
		const { home, store } = setup();
		const a = await store.create({ name: "a" });
		const b = await store.create({ name: "b" });
		await listFresh(home);
		await listFresh(home); // from here on the mark holds, and listings trust the snapshot
		const marked = currentMetadataChanges(metadataChangesPath(home));
		const shelf = join(home, "shelf");
		mkdirSync(shelf);
		renameSync(store.pathsOf(a.id).dir, join(shelf, a.id));
		expect((await listFresh(home)).map((s) => s.name)).toEqual(["b"]);
		renameSync(join(shelf, a.id), store.pathsOf(a.id).dir);
		expect((await listFresh(home)).map((s) => s.name)).toEqual(["a", "b"]);
		rmSync(store.pathsOf(b.id).dir, { recursive: true });
		expect((await listFresh(home)).map((s) => s.name)).toEqual(["a"]);
		// A directory that is not a session's (a stray copy) changes nothing listed.
		mkdirSync(join(home, "sessions", "not-a-session"));
		expect((await listFresh(home)).map((s) => s.name)).toEqual(["a"]);
		expect(currentMetadataChanges(metadataChangesPath(home))).toBe(marked);
	});

	it("is replaced by every way the store changes a metadata.json, and by taking a lease", async () => {
		const { home, store } = setup();
		const mark = metadataChangesPath(home);
		mkdirSync(join(home, "cache"), { recursive: true });
		const { id } = await store.create({ name: "first" });
		await store.append(id, [userMessage("hello")]);
		const changes: Array<[string, () => Promise<unknown>]> = [
			["create", () => store.create({ name: "second" })],
			["append", () => store.append(id, [userMessage("again")])],
			["rename", () => store.rename(id, "renamed")],
			["label", () => store.label(id, 1, "start")],
			["archive", () => store.archive(id)],
			["unarchive", () => store.unarchive(id)],
			["branch", () => store.branch(id, 1)],
			["fork", () => store.fork(id)],
			[
				"lease taken and let go",
				async () => {
					const lease = await store.lease(id);
					await lease.release();
				},
			],
			[
				"metadata.json rebuilt by a reader",
				async () => {
					rmSync(store.pathsOf(id).metadata);
					await createFileStore({ home }).metadata(id);
				},
			],
		];
		for (const [what, change] of changes) {
			const before = currentMetadataChanges(mark);
			expect(before, what).toBeDefined();
			await change();
			expect(currentMetadataChanges(mark), what).not.toBe(before);
		}
	});

	it("trusts nothing when the mark is missing, damaged or not a file, and a writer puts a usable one back", async () => {
		const { home, store } = setup();
		const mark = metadataChangesPath(home);
		const { id } = await store.create({ name: "a" });
		await listFresh(home);
		await listFresh(home);
		for (const damage of [
			() => rmSync(mark),
			() => writeFileSync(mark, "short"),
			() => {
				rmSync(mark);
				symlinkSync(join(home, "elsewhere"), mark);
			},
		]) {
			damage();
			replaceByHand(store, id, "by hand");
			expect((await listFresh(home)).map((s) => s.name)).toEqual(["by hand"]);
			markMetadataChanged(mark);
			expect(currentMetadataChanges(mark)).toHaveLength(48);
			await listFresh(home); // trusted from here on
			replaceByHand(store, id, "a");
		}
	});

	it("a mark that is a directory cannot be replaced or read: listings check every file, writes go on", async () => {
		const { home, store } = setup();
		const mark = metadataChangesPath(home);
		const { id } = await store.create({ name: "a" });
		await listFresh(home);
		rmSync(mark, { force: true });
		mkdirSync(join(mark, "inside"), { recursive: true });
		await store.rename(id, "renamed");
		expect(currentMetadataChanges(mark)).toBeUndefined();
		replaceByHand(store, id, "by hand");
		expect((await listFresh(home)).map((s) => s.name)).toEqual(["by hand"]);
	});

	it("after any interleaving of writers and listings, a listing says what the files say", async () => {
		type Step =
			| { kind: "create" }
			| { kind: "append"; session: number }
			| { kind: "rename"; session: number; name: string }
			| { kind: "delete"; session: number }
			| { kind: "shelve"; session: number }
			| { kind: "unshelve" }
			| { kind: "list" };
		const step: fc.Arbitrary<Step> = fc.oneof(
			fc.constant({ kind: "create" as const }),
			fc.record({ kind: fc.constant("append" as const), session: fc.nat(5) }),
			fc.record({ kind: fc.constant("rename" as const), session: fc.nat(5), name: fc.string({ maxLength: 8 }) }),
			fc.record({ kind: fc.constant("delete" as const), session: fc.nat(5) }),
			// By hand, unknown to the store: a session directory moved out of the store and back.
			fc.record({ kind: fc.constant("shelve" as const), session: fc.nat(5) }),
			fc.constant({ kind: "unshelve" as const }),
			fc.constant({ kind: "list" as const }),
		);
		await fc.assert(
			fc.asyncProperty(fc.array(fc.array(step, { minLength: 1, maxLength: 3 }), { maxLength: 12 }), async (rounds) => {
				const { home } = setup();
				const writers = [createFileStore({ home }), createFileStore({ home })];
				const ids: string[] = [];
				const shelved: string[] = [];
				const shelf = join(home, "shelf");
				mkdirSync(shelf, { recursive: true });
				const run = async (s: Step, i: number): Promise<unknown> => {
					const writer = writers[i % 2] as FileSessionStore;
					const id = "session" in s ? ids[s.session % Math.max(1, ids.length)] : undefined;
					if (s.kind === "create") return ids.push((await writer.create({ name: `s${ids.length}` })).id);
					if (s.kind === "list") return listFresh(home);
					if (s.kind === "unshelve") {
						const back = shelved.pop();
						if (back === undefined) return undefined;
						renameSync(join(shelf, back), writer.pathsOf(back).dir);
						return ids.push(back);
					}
					if (id === undefined) return undefined;
					if (s.kind === "shelve") {
						ids.splice(ids.indexOf(id), 1);
						shelved.push(id);
						return renameSync(writer.pathsOf(id).dir, join(shelf, id));
					}
					if (s.kind === "append") return writer.append(id, [userMessage("x")]);
					if (s.kind === "rename") return writer.rename(id, s.name.length > 0 ? s.name : "unnamed");
					ids.splice(ids.indexOf(id), 1);
					return writer.delete(id);
				};
				// The steps of a round run at once: listings race the writes.
				for (const round of rounds) await Promise.allSettled(round.map(run));
				expect(await listFresh(home)).toEqual(filesSay(home));
				expect(await listFresh(home)).toEqual(filesSay(home));
			}),
			{ numRuns: RUNS },
		);
	});
});
