import { readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createFileStore } from "@agent/session-fs";
import { getModels } from "@mariozechner/pi-ai";
import { describe, expect, it } from "vitest";
import { readModelContext } from "./model-context.js";
import { contextWindowOf } from "./model-names.js";
import { loadModelRegistry } from "./model-registry.js";
import { AgentSessions } from "./runtime.js";

const MODEL = "anthropic/claude-sonnet-4-5";

function text(content: string) {
	return [{ type: "text" as const, text: content }];
}

/** A session answered by MODEL: tool results to prune, and one text too big for MODEL's window. */
async function sessionAt(home: string): Promise<string> {
	const store = createFileStore({ home });
	const { id } = await store.create();
	const lease = await store.lease(id);
	const assistant = {
		role: "assistant" as const,
		api: "anthropic-messages",
		provider: "anthropic",
		model: "claude-sonnet-4-5",
	};
	for (let i = 0; i < 4; i++) {
		await lease.append([
			{ recordType: "message", role: "user", content: text(`read f${i}`) },
			{
				recordType: "message",
				...assistant,
				content: [{ type: "toolCall", id: `call-${i}`, name: "read", arguments: { path: `f${i}` } }],
				stopReason: "toolUse",
			},
			{
				recordType: "message",
				role: "toolResult",
				toolCallId: `call-${i}`,
				toolName: "read",
				isError: false,
				content: text("data ".repeat(500)),
			},
			{ recordType: "message", ...assistant, content: text(`done ${i}`), stopReason: "stop" },
		]);
	}
	// Over a quarter of (200k - 16k reserve) tokens: cut for MODEL, whole for a bigger window.
	await lease.append([{ recordType: "message", role: "user", content: text("x".repeat(4 * 60_000)) }]);
	await lease.release();
	return id;
}

describe("readModelContext", () => {
	it("is the runtime's modelContext, config.yaml and the model's window included, without a runtime", async () => {
		const home = await fs.mkdtemp(path.join(os.tmpdir(), "agent-model-context-"));
		await fs.writeFile(
			path.join(home, "config.yaml"),
			"compaction:\n  prune_tool_outputs: 100\n  prune_minimum_tokens: 0\n",
		);
		const id = await sessionAt(home);
		const read = await readModelContext(createFileStore({ home }), id, { home });
		const runtime = await AgentSessions.open({ home });
		expect(read).toEqual(await runtime.modelContext(id));
		expect(read.pruned?.seqs.length).toBeGreaterThan(0);
		expect(read.truncated?.seqs).toHaveLength(1);
	});

	it("knows the windows of pi-ai's registry and the demo model's", async () => {
		const registry = await loadModelRegistry();
		const sonnet = getModels("anthropic").find((model) => model.id === "claude-sonnet-4-5");
		expect(contextWindowOf(registry, MODEL)).toBe(sonnet?.contextWindow);
		expect(contextWindowOf(registry, "demo")).toBe(32_000);
		expect(contextWindowOf(registry, "nobody/knows")).toBeUndefined();
	});

	it("keeps the registry's windows in the home's cache, used while the registry is the one they came from", async () => {
		const home = await fs.mkdtemp(path.join(os.tmpdir(), "agent-model-windows-"));
		const id = await sessionAt(home);
		const file = path.join(home, "cache", "model-windows.json");
		const sonnet = getModels("anthropic").find((model) => model.id === "claude-sonnet-4-5");
		const context = () => readModelContext(createFileStore({ home }), id, { home });
		expect((await context()).truncated?.seqs).toHaveLength(1);
		const cached = JSON.parse(readFileSync(file, "utf8"));
		expect(cached.windows[MODEL]).toBe(sonnet?.contextWindow);
		expect(Object.keys(cached.windows).length).toBeGreaterThan(100);
		// Read from the cache: a window made huge there cuts nothing.
		writeFileSync(file, JSON.stringify({ key: cached.key, windows: { [MODEL]: 1e9 } }));
		expect((await context()).truncated).toBeUndefined();
		// Made from another registry, or damaged: not used, and written again from the registry.
		for (const stale of [JSON.stringify({ key: "another", windows: { [MODEL]: 1e9 } }), "{not json", ""]) {
			writeFileSync(file, stale);
			expect((await context()).truncated?.seqs).toHaveLength(1);
			expect(JSON.parse(readFileSync(file, "utf8"))).toEqual(cached);
		}
		// A link in the cache is not followed (as no file of the store's cache is).
		const elsewhere = path.join(home, "elsewhere.json");
		writeFileSync(elsewhere, JSON.stringify({ key: cached.key, windows: { [MODEL]: 1e9 } }));
		rmSync(file);
		symlinkSync(elsewhere, file);
		expect((await context()).truncated?.seqs).toHaveLength(1);
	});
});
