import { existsSync, mkdirSync, rmdirSync, utimesSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { removeStaleLock } from "./file-lock.js";
import { useTempStores } from "./test-home.js";

const setup = useTempStores();

describe("removing a lock proper-lockfile judged stale", () => {
	it("removes it only while it is still stale, and only under the takeover guard", async () => {
		const { store } = setup();
		const { id } = await store.create();
		const { lockDir, takeoverGuard } = store.pathsOf(id);
		// Judged stale, then removed by another process and taken anew: the lock there is fresh.
		mkdirSync(lockDir);
		expect(() => removeStaleLock(lockDir, 2000)).toThrow(expect.objectContaining({ code: "ELOCKED" }));
		expect(existsSync(lockDir)).toBe(true);
		// Stale indeed, but another process is removing a lock of this session right now.
		const old = new Date(Date.now() - 60_000);
		utimesSync(lockDir, old, old);
		mkdirSync(takeoverGuard);
		expect(() => removeStaleLock(lockDir, 2000)).toThrow(expect.objectContaining({ code: "ELOCKED" }));
		expect(existsSync(lockDir)).toBe(true);
		rmdirSync(takeoverGuard);
		// Stale, and nobody else at it: removed, and the guard let go.
		removeStaleLock(lockDir, 2000);
		expect(existsSync(lockDir)).toBe(false);
		expect(existsSync(takeoverGuard)).toBe(false);
		// Gone already (another process removed it): nothing to do, no error.
		expect(() => removeStaleLock(lockDir, 2000)).not.toThrow();
	});

	it("a stale lock is still taken over by the next writer", async () => {
		const { store } = setup({ staleLeaseMs: 2000 });
		const { id } = await store.create();
		const { lockDir } = store.pathsOf(id);
		mkdirSync(lockDir);
		const old = new Date(Date.now() - 60_000);
		utimesSync(lockDir, old, old);
		const appended = await store.append(id, [{ recordType: "custom", customType: "n", data: {} }], { waitMs: 1000 });
		expect(appended.records[0]?.seq).toBe(1);
	});
});
