import { createFileStore } from "@agent/session-fs";
import { afterEach, describe, expect, it } from "vitest";
import { followStoreChanges, type SessionEvent } from "../src/index.js";
import { fauxModel, openRuntime, tempHome } from "./helpers.js";

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
	for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function until(test: () => boolean): Promise<void> {
	for (let i = 0; i < 200 && !test(); i++) await new Promise((resolve) => setTimeout(resolve, 25));
	expect(test()).toBe(true);
}

describe("followStoreChanges: what other processes write becomes the runtime's events", () => {
	it("tells records another writer appends, in order, and sessions it creates and deletes; its own writes once", async () => {
		const home = await tempHome();
		const faux = fauxModel();
		cleanups.push(() => faux.faux.unregister());
		const runtime = await openRuntime(home, { resolveModel: faux.resolveModel });
		const events: SessionEvent[] = [];
		runtime.subscribe((event) => events.push(event));
		const follow = await followStoreChanges(runtime);
		cleanups.push(() => follow.close());

		// Its own: a session and a turn, told once by the runtime itself.
		const own = await runtime.create({ model: "faux/faux-small" });
		await runtime.send(own.id, "hello");
		await new Promise((resolve) => setTimeout(resolve, 600));
		const appendedOwn = events.filter((e) => e.type === "record.appended" && e.sessionId === own.id);
		expect(new Set(appendedOwn.map((e) => e.type === "record.appended" && e.record.seq)).size).toBe(appendedOwn.length);
		expect(events.filter((e) => e.type === "session.created" && e.sessionId === own.id)).toHaveLength(1);

		// Another writer: records appended to a session a client watches, told one by one.
		const unwatch = runtime.subscribe(() => {}, { sessionId: own.id });
		const other = createFileStore({ home });
		const lastSeq = (await runtime.metadata(own.id)).lastSeq;
		await other.append(own.id, [
			{ recordType: "message", role: "user", content: [{ type: "text", text: "from a terminal" }] },
			{ recordType: "message", role: "assistant", content: [{ type: "text", text: "answered there" }] },
		]);
		await until(() => events.some((e) => e.type === "session.updated" && e.metadata.lastSeq === lastSeq + 2));
		const told = events.filter((e) => e.type === "record.appended" && e.sessionId === own.id && e.record.seq > lastSeq);
		expect(told.map((e) => e.type === "record.appended" && e.record.seq)).toEqual([lastSeq + 1, lastSeq + 2]);
		unwatch();

		// Nobody watching it: a burst of appends is one update, with no records read.
		const before = events.length;
		for (let i = 0; i < 5; i++) {
			await other.append(own.id, [
				{ recordType: "message", role: "user", content: [{ type: "text", text: `burst ${i}` }] },
			]);
		}
		await until(() => events.some((e) => e.type === "session.updated" && e.metadata.lastSeq === lastSeq + 7));
		const burst = events.slice(before);
		expect(burst.filter((e) => e.type === "record.appended")).toHaveLength(0);
		expect(burst.filter((e) => e.type === "session.updated").length).toBeLessThanOrEqual(2);

		// A session it creates, then deletes.
		const made = await other.create({ name: "made elsewhere" });
		await until(() => events.some((e) => e.type === "session.created" && e.sessionId === made.id));
		await other.delete(made.id);
		await until(() => events.some((e) => e.type === "session.deleted" && e.sessionId === made.id));

		// Deleted here: told once (by the runtime), not again by the watch.
		await runtime.delete(own.id);
		await new Promise((resolve) => setTimeout(resolve, 600));
		expect(events.filter((e) => e.type === "session.deleted" && e.sessionId === own.id)).toHaveLength(1);
	});
});
