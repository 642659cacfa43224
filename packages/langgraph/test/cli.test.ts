// The thread as operators see it: `agent-sessions context <id>` (the CLI's built bin, spawned)
// prints the conversation a LangGraph run stored, from the file store and from PostgreSQL.
import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { HumanMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { StoreCheckpointer } from "../src/index.js";
import { sessionIdOf } from "../src/test-store.js";
import { weatherGraph } from "./fixtures/weather-graph.mjs";
import { STORE_KINDS, useStore } from "./stores.js";

const cliDir = dirname(createRequire(import.meta.url).resolve("agent-sessions/package.json"));
const CLI = join(cliDir, "dist", "cli", "agent-sessions.cjs");

async function cli(args: string[]): Promise<string> {
	const env = { ...process.env, NO_COLOR: "1", AGENT_STORE: "" };
	return (await promisify(execFile)(process.execPath, [CLI, ...args], { env })).stdout;
}

describe.each(STORE_KINDS)("agent-sessions context (%s store)", (kind) => {
	const opened = useStore(kind);

	it("shows the conversation of a LangGraph thread, tool call and result included", async () => {
		const graph = weatherGraph(new StoreCheckpointer({ store: opened().store }));
		await graph.invoke(
			{ messages: [new HumanMessage("What is the weather in Paris?")] },
			{ configurable: { thread_id: "shown" } },
		);
		const id = await sessionIdOf(opened().store, "shown");
		const where = kind === "file" ? ["--home", opened().location] : ["--store", opened().location];
		const lines = (await cli([...where, "context", id])).split("\n");
		expect(lines[0]).toMatch(/^4 message\(s\)/);
		const shown = lines.slice(1).filter((line) => line !== "");
		expect(shown[0]).toMatch(/^\[user\] #\d+$/);
		expect(shown[1]).toBe("What is the weather in Paris?");
		expect(shown[2]).toMatch(/^\[assistant\] #\d+$/);
		expect(shown.join("\n")).toMatch(/weather.*Paris/);
		expect(shown).toContain("sunny in Paris");
		expect(shown.at(-1)).toBe("Forecast: sunny in Paris.");
		// Search and export see it too.
		const found = await cli([...where, "search", "--json", "sunny in Paris"]);
		expect(
			(JSON.parse(found) as { sessionId: string; role: string }[]).map((hit) => [hit.sessionId, hit.role]),
		).toEqual([
			[id, "toolResult"],
			[id, "assistant"],
		]);
		const markdown = await cli([...where, "export", id, "--format", "md"]);
		expect(markdown).toContain("What is the weather in Paris?");
		expect(markdown).toContain("### Tool result: weather");
		expect(markdown).toContain("Forecast: sunny in Paris.");
	}, 60_000);
});
