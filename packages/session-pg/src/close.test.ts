import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { openPgStore } from "./store.js";
import { createTestDatabase, findTestPostgres, type TestDatabase } from "./testing.js";

const server = await findTestPostgres();
const CHILD = fileURLToPath(new URL("../test/child-closer.mjs", import.meta.url));

interface Ran {
	child: ChildProcess;
	/** The session the child made, once it printed it (after closing, when it closes). */
	id: Promise<string>;
	exit: Promise<number | null>;
}

function run(url: string, how: "close" | "dispose" | "keep"): Ran {
	const child = spawn(process.execPath, [CHILD, JSON.stringify({ url, how })], { stdio: ["ignore", "pipe", "pipe"] });
	let out = "";
	let err = "";
	child.stderr?.on("data", (chunk) => {
		err += chunk;
	});
	const exit = once(child, "exit").then(([code]) => code as number | null);
	const id = new Promise<string>((resolve, reject) => {
		child.stdout?.on("data", (chunk) => {
			out += chunk;
			if (out.includes("\n")) resolve((JSON.parse(out) as { id: string }).id);
		});
		exit.then((code) => reject(new Error(`the child ended (${code}) before it printed: ${err}`)));
	});
	return { child, id, exit };
}

/** The exit code, or "running" if the process is still running after `ms`. */
function exitWithin(ran: Ran, ms: number): Promise<number | null | "running"> {
	let timer: NodeJS.Timeout | undefined;
	const late = new Promise<"running">((resolve) => {
		timer = setTimeout(() => resolve("running"), ms);
	});
	return Promise.race([ran.exit, late]).finally(() => clearTimeout(timer));
}

describe.skipIf(server === undefined)("close() lets go of everything the PostgreSQL store holds", () => {
	let database: TestDatabase;
	const children: ChildProcess[] = [];
	beforeAll(async () => {
		database = await createTestDatabase(server as string);
	});
	afterEach(() => {
		for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
	});
	afterAll(async () => {
		await database?.drop();
	});

	it.each(["close", "dispose"] as const)(
		"a script that held a lease, a watch and a relay ends by itself once it calls %s, the lease given back",
		async (how) => {
			const ran = run(database.url, how);
			children.push(ran.child);
			const id = await ran.id;
			// Generous for a loaded machine: a process that nothing holds ends in a moment.
			expect(await exitWithin(ran, 30_000)).toBe(0);
			const store = await openPgStore({ url: database.url });
			try {
				const lease = await store.lease(id, { waitMs: 0 });
				expect((await lease.append([{ recordType: "session_info", name: "next" }])).metadata.lastSeq).toBe(3);
				await lease.release();
			} finally {
				await store.close();
			}
		},
	);

	it("without close, the connections a held lease, a watch and a relay keep open keep the script running (what close is for)", async () => {
		const ran = run(database.url, "keep");
		children.push(ran.child);
		await ran.id;
		expect(await exitWithin(ran, 3_000)).toBe("running");
	});
});
