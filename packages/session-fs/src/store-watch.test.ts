import type { StoreChange } from "@agent/session-format";
import { afterEach, describe, expect, it } from "vitest";
import { createFileStore } from "./store.js";
import { WriterProcess } from "./test-children.js";
import { tempStore } from "./test-home.js";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
	for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function watched() {
	const { home, store, cleanup } = tempStore();
	cleanups.push(cleanup);
	const changes: StoreChange[] = [];
	const watcher = await store.watch((change) => changes.push(change));
	cleanups.push(() => watcher.close());
	const until = async (test: () => boolean) => {
		for (let i = 0; i < 200 && !test(); i++) await new Promise((resolve) => setTimeout(resolve, 25));
		expect(test()).toBe(true);
	};
	return { home, store, changes, until };
}

describe("the file store's watch reports what any process wrote", () => {
	it("a session created by another store, records another process appends, and a deletion", async () => {
		const { home, changes, until } = await watched();
		const other = createFileStore({ home });
		const created = await other.create({ name: "from elsewhere" });
		await until(() => changes.some((c) => c.type === "changed" && c.sessionId === created.id));
		expect(changes[0]).toMatchObject({ type: "changed", sessionId: created.id, created: true });

		const writer = new WriterProcess({ home, id: created.id, mode: "append", count: 3, writer: "w" });
		await writer.exited;
		expect(writer.acks).toHaveLength(3);
		await until(() =>
			changes.some((c) => c.type === "changed" && c.sessionId === created.id && c.metadata.lastSeq === 3),
		);
		const last = changes.at(-1);
		expect(last).toMatchObject({ type: "changed", created: false });

		await other.delete(created.id);
		await until(() => changes.some((c) => c.type === "deleted" && c.sessionId === created.id));
	});

	it("reports nothing while nothing changes, its own listings and snapshots included", async () => {
		const { store, changes } = await watched();
		const session = await store.create({ name: "quiet" });
		await store.append(session.id, [{ recordType: "custom", customType: "x", data: 1 }]);
		await new Promise((resolve) => setTimeout(resolve, 300));
		const seen = changes.length;
		expect(seen).toBeGreaterThan(0);
		for (let i = 0; i < 3; i++) await store.list();
		await new Promise((resolve) => setTimeout(resolve, 1300));
		expect(changes.length).toBe(seen);
	});
});
