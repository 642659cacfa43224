// close() and [Symbol.asyncDispose]: a program that opened the runtime exits by itself once it
// closed it (checked in a child process, where anything left open would keep it alive), and the
// runtime refuses new work after it.
import { spawn } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createFileStore } from "@agent/session-fs";
import { openPgStore } from "@agent/session-pg";
import { createTestDatabase, findTestPostgres, type TestDatabase } from "@agent/session-pg/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { followStoreChanges } from "../src/index.js";
import { fauxModel, openRuntime, tempHome } from "./helpers.js";

const PACKAGE_DIR = fileURLToPath(new URL("..", import.meta.url));
const server = await findTestPostgres();

/**
 * Runs an ES module in the package's folder (so `@agent/session` is its build) and resolves with
 * its exit code and output once it exits by itself: a handle left open would keep it running
 * until the test's timeout fails it.
 */
async function runScript(code: string, env: Record<string, string> = {}) {
	const file = path.join(PACKAGE_DIR, `.close-test-${process.pid}-${Math.random().toString(36).slice(2)}.mjs`);
	writeFileSync(file, code);
	try {
		const child = spawn(process.execPath, [file], {
			cwd: PACKAGE_DIR,
			env: { ...process.env, AGENT_DEMO_TOKENS_PER_SECOND: "Infinity", ...env },
			stdio: ["ignore", "pipe", "pipe"],
		});
		let output = "";
		child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
			output += chunk;
		});
		child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
			output += chunk;
		});
		const code_ = await new Promise<number | null>((resolve) => child.on("exit", resolve));
		return { code: code_, output };
	} finally {
		rmSync(file, { force: true });
	}
}

describe("AgentSessions.close()", () => {
	it("stops the store follows opened on it: their watchers close", async () => {
		const store = createFileStore({ home: await tempHome() });
		// The real store, watched for what it has open: a follow left running would keep its watcher.
		let open = 0;
		const watch = store.watch?.bind(store);
		if (!watch) throw new Error("the file store can watch");
		// A capability is a plain member of the store (readonly in its type): replaced here to count.
		(store as { watch: typeof watch }).watch = async (onChange) => {
			const watcher = await watch(onChange);
			open++;
			return {
				close: async () => {
					open--;
					await watcher.close();
				},
			};
		};
		const runtime = await openRuntime(await tempHome(), { store });
		await followStoreChanges(runtime);
		await followStoreChanges(runtime);
		expect(open).toBe(2);
		await runtime[Symbol.asyncDispose]();
		expect(open).toBe(0);
	});

	it("refuses turns, sessions and compactions after close(), naming what to do", async () => {
		const chat = fauxModel();
		const runtime = await openRuntime(await tempHome(), { resolveModel: chat.resolveModel });
		const session = await runtime.create({ model: "faux/faux-small" });
		await runtime.close();
		expect(() => runtime.enqueue(session.id, "late")).toThrow(/runtime is closed.*AgentSessions\.open\(\)/);
		await expect(runtime.create()).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
		await expect(runtime.compact(session.id)).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
		chat.faux.unregister();
	});

	it("lets the turns queued before it finish, and records them", async () => {
		const chat = fauxModel();
		const runtime = await openRuntime(await tempHome(), { resolveModel: chat.resolveModel });
		const session = await runtime.create({ model: "faux/faux-small" });
		const turns = ["one", "two", "three"].map((text) => runtime.send(session.id, text));
		await runtime.close();
		expect(runtime.queueDepth(session.id)).toBe(0);
		await Promise.all(turns);
		expect((await runtime.turns(session.id)).map((turn) => turn.outcome)).toEqual([
			"completed",
			"completed",
			"completed",
		]);
		chat.faux.unregister();
	});
});

describe.skipIf(server === undefined)("AgentSessions.close() on PostgreSQL", () => {
	let database: TestDatabase;
	beforeAll(async () => {
		database = await createTestDatabase(server as string, "agent_close_test");
	});
	afterAll(async () => {
		await database?.drop();
	});

	it("closes a store it opened from postgres://: its pool is ended", async () => {
		const runtime = await openRuntime(await tempHome(), { storeUrl: database.url });
		await runtime.create({ model: "demo" });
		await runtime.close();
		await expect(runtime.store.list()).rejects.toThrow();
	});

	it("a program on postgres:// finishes close() and exits with 0 (nothing left waiting)", async () => {
		const result = await runScript(
			`import { AgentSessions } from "@agent/session";
const sessions = await AgentSessions.open({ storeUrl: process.env.STORE_URL });
const { id } = await sessions.create({ model: "demo" });
await sessions.send(id, "hello");
await sessions.close();
console.log("closed", id.length);
`,
			{ STORE_URL: database.url },
		);
		expect(result.output).toContain("closed 26");
		expect(result.code, result.output).toBe(0);
	});

	it("leaves a store it was given open: its owner closes it", async () => {
		const store = await openPgStore({ url: database.url, maxConnections: 2 });
		const runtime = await openRuntime(await tempHome(), { store });
		const session = await runtime.create({ model: "demo" });
		await runtime.close();
		expect((await store.metadata(session.id)).id).toBe(session.id);
		await store.close();
	});
});
