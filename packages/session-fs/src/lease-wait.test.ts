import { mkdirSync, readFileSync, utimesSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { useTempStores } from "./test-home.js";

const setup = useTempStores();
const record = (n: number) => ({ recordType: "custom" as const, customType: "n", data: { n } });

describe("waiting for the lease in one process", () => {
	it("a writer that gives up waiting gets SESSION_LOCKED naming this process; one whose signal aborts gets ABORTED; neither writes", async () => {
		const { store } = setup();
		const { id } = await store.create();
		const lease = await store.lease(id);
		try {
			const timedOut = await store.append(id, [record(1)], { waitMs: 50 }).catch((error) => error);
			expect(timedOut).toMatchObject({ code: "SESSION_LOCKED", holder: { pid: process.pid } });
			const controller = new AbortController();
			const waiting = store
				.append(id, [record(2)], { waitMs: 60_000, signal: controller.signal })
				.catch((error) => error);
			controller.abort();
			expect(await waiting).toMatchObject({ code: "ABORTED" });
		} finally {
			await lease.release();
		}
		expect((await store.metadata(id)).lastSeq).toBe(0);
	});

	it("a lease used after its release refuses with INVALID_ARGUMENT", async () => {
		const { store } = setup();
		const { id } = await store.create();
		const lease = await store.lease(id);
		await lease.release();
		await expect(lease.append([record(1)])).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
		await lease.release();
	});

	it("while a lease is held metadata.json may lag the log, readers still get true metadata, and release writes it", async () => {
		const { store } = setup({ metadataFlushMs: 3_600_000 });
		const { id } = await store.create();
		const file = store.pathsOf(id).metadata;
		const lease = await store.lease(id);
		for (let n = 1; n <= 3; n++) await lease.append([record(n)]);
		expect(JSON.parse(readFileSync(file, "utf8")).lastSeq).toBeLessThan(3);
		expect((await store.metadata(id)).lastSeq).toBe(3);
		expect((await store.list()).sessions[0]?.id).toBe(id);
		await lease.release();
		expect(JSON.parse(readFileSync(file, "utf8"))).toMatchObject({ lastSeq: 3, logBytes: expect.any(Number) });
	});
});

describe("the default wait", () => {
	it("outlasts the stale timeout of a lock whose holder died before naming itself in it", async () => {
		const { store } = setup(); // the default stale timeout (10 s) and wait
		const { id } = await store.create();
		// What a holder SIGKILLed between proper-lockfile's mkdir and its holder entry leaves: a
		// lock directory naming nobody, its mtime a second ahead (whole-second mtimes are rounded up).
		const lockDir = store.pathsOf(id).lockDir;
		mkdirSync(lockDir);
		const ahead = new Date(Date.now() + 1000);
		utimesSync(lockDir, ahead, ahead);
		const started = Date.now();
		const appended = await store.append(id, [record(1)]);
		expect(appended.records[0]?.seq).toBe(1);
		// Taken over only once stale, not sooner: the lock was honoured until then.
		expect(Date.now() - started).toBeGreaterThanOrEqual(10_000);
	}, 30_000);
});
