// Errors as a library user meets them: addressed to the program that got them (not to a process
// to stop that is itself), in the library's terms (not the CLI's commands).
import type { SessionStore } from "@agent/session-format";
import { createFileStore } from "@agent/session-fs";
import { openPgStore } from "@agent/session-pg";
import { createTestDatabase, findTestPostgres, type TestDatabase } from "@agent/session-pg/testing";
import { fauxAssistantMessage, registerFauxProvider } from "@mariozechner/pi-ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openRuntime, tempHome } from "./helpers.js";

const server = await findTestPostgres();
const note = { recordType: "message" as const, role: "user" as const, content: [{ type: "text" as const, text: "x" }] };

async function appendError(store: SessionStore, id: string): Promise<Error> {
	return store.append(id, [note], { waitMs: 50 }).then(
		() => {
			throw new Error("the append went through a lease held elsewhere");
		},
		(error: Error) => error,
	);
}

/** A write outside a lease this process holds: the error says so and what to do. */
async function expectHeldHere(store: SessionStore): Promise<void> {
	const { id } = await store.create({});
	const lease = await store.lease(id);
	try {
		const error = await appendError(store, id);
		expect(error).toMatchObject({ code: "SESSION_LOCKED" });
		expect(error.message).toContain("a lease this process holds");
		expect(error.message).toContain("SessionLease.append");
		expect(error.message).not.toContain("stop that process");
	} finally {
		await lease.release();
	}
	// Released: the same append goes through.
	expect((await store.append(id, [note])).records).toHaveLength(1);
}

describe("SESSION_LOCKED by this very process", () => {
	it("on the file store, says the lease is this process's and to append through it", async () => {
		await expectHeldHere(createFileStore({ home: await tempHome() }));
	});

	it("while a turn of the runtime holds the lease, an append by the program says so too", async () => {
		// The model answers only once the test has tried its append: the turn holds the lease meanwhile.
		let asked: () => void = () => {};
		const modelCalled = new Promise<void>((resolve) => {
			asked = resolve;
		});
		let answer: () => void = () => {};
		const answered = new Promise<void>((resolve) => {
			answer = resolve;
		});
		const faux = registerFauxProvider({ provider: "gated", models: [{ id: "m" }] });
		faux.setResponses([
			async () => {
				asked();
				await answered;
				return fauxAssistantMessage("done");
			},
		]);
		const model = faux.getModel();
		const runtime = await openRuntime(await tempHome(), { resolveModel: (name) => ({ name, model }) });
		const session = await runtime.create({ model: "gated/m" });
		const turn = runtime.send(session.id, "hold it");
		await modelCalled;
		const error = await appendError(runtime.store, session.id);
		answer();
		await turn;
		expect(error).toMatchObject({ code: "SESSION_LOCKED" });
		expect(error.message).toContain("a running turn of the runtime holds it");
		faux.unregister();
	});
});

describe.skipIf(server === undefined)("SESSION_LOCKED by this very process, on PostgreSQL", () => {
	let database: TestDatabase;
	beforeAll(async () => {
		database = await createTestDatabase(server as string, "agent_errors_test");
	});
	afterAll(async () => {
		await database?.drop();
	});

	it("says the lease is this process's and to append through it", async () => {
		const store = await openPgStore({ url: database.url, maxConnections: 4 });
		try {
			await expectHeldHere(store);
		} finally {
			await store.close();
		}
	});
});

describe("library messages speak of the library, not of the CLI", () => {
	it("a missing session and a bad id name no agent-sessions command", async () => {
		const runtime = await openRuntime(await tempHome());
		const missing = await runtime.metadata("01JMRZ8X1Q9V5E2H3K4M6N7P8R").catch((error: Error) => error);
		const invalid = await runtime.metadata("not-an-id").catch((error: Error) => error);
		expect(missing).toMatchObject({ code: "SESSION_NOT_FOUND" });
		expect(invalid).toMatchObject({ code: "INVALID_SESSION_ID" });
		for (const error of [missing, invalid]) {
			expect((error as Error).message).not.toContain("agent-sessions");
			expect((error as Error).message).toMatch(/list\(/);
		}
	});
});
