// Errors about models, as a library user meets them: a model whose API key is missing fails
// before anything is written and names the variable; a model registered with another copy of
// pi-ai (two versions installed) is explained as such, by the runtime and by compaction.
import { cpSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { isAgentSessionError } from "@agent/session-format";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { fauxModel, openRuntime, tempHome } from "./helpers.js";

const cleanups: Array<() => void> = [];
afterEach(() => {
	for (const cleanup of cleanups.splice(0)) cleanup();
});

/** Runs `body` with `name` set (or unset, for undefined) in the environment, then restores it. */
async function withEnv<T>(values: Record<string, string | undefined>, body: () => Promise<T>): Promise<T> {
	const before = Object.fromEntries(Object.keys(values).map((key) => [key, process.env[key]]));
	const apply = (next: Record<string, string | undefined>) => {
		for (const [key, value] of Object.entries(next)) {
			if (value === undefined) delete process.env[key];
			else process.env[key] = value;
		}
	};
	apply(values);
	try {
		return await body();
	} finally {
		apply(before);
	}
}

async function sessionCount(home: string): Promise<number> {
	const runtime = await openRuntime(home);
	return (await runtime.list({ archived: true })).sessions.length;
}

describe("a model that needs an API key", () => {
	const noKeys = { ANTHROPIC_API_KEY: undefined, ANTHROPIC_OAUTH_TOKEN: undefined, AGENT_MODEL: undefined };

	it("fails create() with MODEL_NOT_CONFIGURED naming the variable, and writes nothing", async () => {
		const home = await tempHome();
		await withEnv(noKeys, async () => {
			const runtime = await openRuntime(home);
			const error = await runtime.create({ model: "anthropic/claude-sonnet-4-5" }).catch((caught: unknown) => caught);
			expect(isAgentSessionError(error, "MODEL_NOT_CONFIGURED"), String(error)).toBe(true);
			expect((error as Error).message).toContain("ANTHROPIC_API_KEY");
			expect((error as Error).message).not.toContain("agent-sessions");
		});
		expect(await sessionCount(home)).toBe(0);
	});

	it("fails send() with a model given, before the turn is accepted: no record, no journal entry", async () => {
		const home = await tempHome();
		await withEnv(noKeys, async () => {
			const runtime = await openRuntime(home);
			const session = await runtime.create({ model: "demo" });
			const turn = runtime.enqueue(session.id, "hello", { model: "anthropic/claude-sonnet-4-5" });
			await expect(turn.accepted).rejects.toMatchObject({ code: "MODEL_NOT_CONFIGURED" });
			await expect(turn.done).rejects.toMatchObject({ code: "MODEL_NOT_CONFIGURED" });
			expect((await runtime.metadata(session.id)).lastSeq).toBe(0);
			expect(await runtime.store.acceptedTurns?.(session.id)).toEqual([]);
		});
	});

	it("fails a send() on a session whose recorded model lost its key, before its user message is written", async () => {
		const home = await tempHome();
		const session = await withEnv({ ...noKeys, ANTHROPIC_API_KEY: "sk-test-not-used" }, async () =>
			(await openRuntime(home)).create({ model: "anthropic/claude-sonnet-4-5" }),
		);
		await withEnv(noKeys, async () => {
			const runtime = await openRuntime(home);
			await expect(runtime.send(session.id, "hello")).rejects.toMatchObject({
				code: "MODEL_NOT_CONFIGURED",
				message: expect.stringContaining("ANTHROPIC_API_KEY"),
			});
			expect((await runtime.metadata(session.id)).lastSeq).toBe(0);
		});
	});
});

describe("two copies of pi-ai", () => {
	// A second copy of pi-ai, as npm installs one when an app needs another version: the same
	// files at another path (so another module instance, with its own registry of providers).
	const piDir = path.dirname(path.dirname(realpathSync(fileURLToPath(import.meta.resolve("@mariozechner/pi-ai")))));
	const copyRoot = mkdtempSync(path.join(os.tmpdir(), "pi-ai-copy-"));
	cpSync(piDir, path.join(copyRoot, "pi-ai"), { recursive: true, dereference: true });
	// Its dependencies (typebox...) resolve from the real copy's node_modules folder.
	symlinkSync(path.dirname(path.dirname(piDir)), path.join(copyRoot, "node_modules"));
	afterAll(() => rmSync(copyRoot, { recursive: true, force: true }));

	async function otherCopyModel() {
		const other = (await import(
			pathToFileURL(path.join(copyRoot, "pi-ai", "dist", "index.js")).href
		)) as typeof import("@mariozechner/pi-ai");
		const faux = other.registerFauxProvider({ provider: "app-faux", models: [{ id: "m" }] });
		cleanups.push(() => faux.unregister());
		faux.setResponses([other.fauxAssistantMessage("never sent")]);
		return faux.getModel();
	}

	it("a turn with a model of the app's copy says two copies are installed and how to fix it", async () => {
		const home = await tempHome();
		const model = await otherCopyModel();
		const runtime = await openRuntime(home, { resolveModel: (name) => ({ name, model }) });
		const session = await runtime.create({ model: "app-faux/m" });
		const error = await runtime.send(session.id, "hi").catch((caught: unknown) => caught);
		expect(isAgentSessionError(error, "MODEL_FAILED"), String(error)).toBe(true);
		expect((error as Error).message).toContain("two versions of @mariozechner/pi-ai are installed");
		expect((error as Error).message).toContain("npm ls @mariozechner/pi-ai");
	});

	it("compaction with a summarizer of the app's copy says the same, not 'check the model's credentials'", async () => {
		const home = await tempHome();
		const chat = fauxModel();
		cleanups.push(() => chat.faux.unregister());
		const summarizer = await otherCopyModel();
		const runtime = await openRuntime(home, {
			resolveModel: (name) => (name === "app-faux/m" ? { name, model: summarizer } : chat.resolveModel(name)),
		});
		const session = await runtime.create({ model: "faux/faux-small" });
		for (const text of ["one", "two", "three"]) await runtime.send(session.id, text);
		const error = await runtime
			.compact(session.id, { model: "app-faux/m", keepRecentTokens: 1 })
			.catch((caught: unknown) => caught);
		expect(isAgentSessionError(error, "COMPACTION_FAILED"), String(error)).toBe(true);
		expect((error as Error).message).toContain("two versions of @mariozechner/pi-ai are installed");
		expect((error as Error).message).toContain("`complete` option");
		expect((error as Error).message).not.toContain("credentials");
	});
});
