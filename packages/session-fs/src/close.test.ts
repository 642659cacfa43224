import type { ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { exitWithin, runStoreScript } from "@agent/store-conformance";
import { afterEach, describe, expect, it } from "vitest";
import { createFileStore } from "./store.js";
import { tempStore } from "./test-home.js";

const CHILD = fileURLToPath(new URL("../test/child-closer.mjs", import.meta.url));

const children: ChildProcess[] = [];
afterEach(() => {
	for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
});

describe("close() lets go of everything the file store holds", () => {
	// Without close such a script ends too (nothing here holds a handle open, and the lock is removed
	// at exit), but its metadata.json may lag its log until the next writer catches it up.
	it.each(["close", "dispose"] as const)(
		"a script that held a lease and a watch ends by itself once it calls %s, its lease given back and metadata.json written",
		async (how) => {
			const { home, cleanup } = tempStore();
			try {
				const ran = runStoreScript(CHILD, { home, how });
				children.push(ran.child);
				const { id } = (await ran.printed) as { id: string };
				// Generous for a loaded machine: a process that nothing holds ends in milliseconds.
				expect(await exitWithin(ran, 30_000)).toBe(0);
				const store = createFileStore({ home });
				// Given back: no lock left for the next writer to find and take over.
				expect(existsSync(store.pathsOf(id).lockDir)).toBe(false);
				const cached = JSON.parse(readFileSync(store.pathsOf(id).metadata, "utf8")) as { lastSeq: number };
				expect(cached.lastSeq).toBe(2);
				const lease = await store.lease(id, { waitMs: 0 });
				expect((await lease.append([{ recordType: "session_info", name: "next" }])).metadata.lastSeq).toBe(3);
				await lease.release();
				await store.close();
			} finally {
				await cleanup();
			}
		},
	);
});
