// Threads across real processes (each child uses the built package): a new process resumes a
// thread, two processes write one thread at once, and a SIGKILL loses no acknowledged checkpoint.
import { type ChildProcess, spawn } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { contentText } from "@agent/session-format";
import { HumanMessage } from "@langchain/core/messages";
import type { CheckpointTuple } from "@langchain/langgraph-checkpoint";
import { describe, expect, it } from "vitest";
import { StoreCheckpointer } from "../src/index.js";
import { recordsOf, sessionIdOf } from "../src/test-store.js";
import { weatherGraph } from "./fixtures/weather-graph.mjs";
import { STORE_KINDS, useStore } from "./stores.js";

const CHILD = fileURLToPath(new URL("./fixtures/child.mjs", import.meta.url));

interface Child {
	process: ChildProcess;
	lines: Record<string, unknown>[];
	done: Promise<number | null>;
}

function start(location: string, threadId: string, args: string[], env: NodeJS.ProcessEnv = {}): Child {
	const child = spawn(process.execPath, [CHILD, location, threadId, ...args], {
		env: { ...process.env, ...env },
		stdio: ["ignore", "pipe", "pipe"],
	});
	const lines: Record<string, unknown>[] = [];
	let buffered = "";
	let errors = "";
	child.stdout?.on("data", (chunk: Buffer) => {
		buffered += chunk.toString();
		for (let end = buffered.indexOf("\n"); end >= 0; end = buffered.indexOf("\n")) {
			lines.push(JSON.parse(buffered.slice(0, end)));
			buffered = buffered.slice(end + 1);
		}
	});
	child.stderr?.on("data", (chunk: Buffer) => {
		errors += chunk.toString();
	});
	const done = new Promise<number | null>((resolve) => {
		child.on("exit", (code) => {
			if (code !== 0 && code !== null) console.error(errors);
			resolve(code);
		});
	});
	return { process: child, lines, done };
}

async function run(location: string, threadId: string, args: string[], env?: NodeJS.ProcessEnv) {
	const child = start(location, threadId, args, env);
	expect(await child.done).toBe(0);
	return child.lines;
}

async function everyCheckpoint(checkpointer: StoreCheckpointer, threadId: string): Promise<CheckpointTuple[]> {
	const out: CheckpointTuple[] = [];
	for await (const tuple of checkpointer.list({ configurable: { thread_id: threadId, checkpoint_ns: "" } }))
		out.push(tuple);
	return out;
}

describe.each(STORE_KINDS)("threads across processes (%s store)", (kind) => {
	const opened = useStore(kind);

	it("a new process resumes a thread another process left at an interrupt", async () => {
		const first = await run(opened().location, "resumed", ["interrupt", "What is the weather in Paris?"]);
		expect(first).toEqual([{ interrupted: { question: "Look up the weather in Paris?" } }]);
		const second = await run(opened().location, "resumed", ["resume", "yes"]);
		expect(second).toEqual([{ answer: "Forecast: sunny in Paris." }]);
		const sessionId = await sessionIdOf(opened().store, "resumed");
		const { context } = await opened().store.open(sessionId);
		expect(context.messages.map((message) => contentText(message.content)).at(-1)).toBe("Forecast: sunny in Paris.");
	}, 60_000);

	it("two processes on one thread: every turn of both lands, each checkpoint's parent is there, the log verifies", async () => {
		await run(opened().location, "shared", ["ask", "What is the weather in Lima?"]);
		const cities = (prefix: string) => ["Oslo", "Rome", "Kyiv", "Doha", "Bern"].map((city) => `${prefix} in ${city}?`);
		// Both wait at a start line until both are loaded. A waiting writer polls the lease at
		// most every ~70 ms, so a child that puts its checkpoints back to back could otherwise win
		// every poll; each turn's tool takes longer than that poll, holding no lease, so the other
		// child gets in during it on a slow machine too.
		const go = join(tmpdir(), `langgraph-go-${process.pid}-${Date.now()}`);
		const env = { START_AFTER: go, TOOL_DELAY_MS: "150" };
		const a = start(opened().location, "shared", ["ask", ...cities("A: weather")], env);
		const b = start(opened().location, "shared", ["ask", ...cities("B: weather")], env);
		const ready = (child: Child) => child.lines.some((line) => line.ready === true);
		await expect.poll(() => ready(a) && ready(b), { timeout: 60_000, interval: 10 }).toBe(true);
		writeFileSync(go, "");
		expect(await Promise.all([a.done, b.done])).toEqual([0, 0]);
		rmSync(go);
		const turns = (child: Child) => child.lines.filter((line) => line.ready !== true);
		for (const [child, prefix] of [
			[a, "A"],
			[b, "B"],
		] as const) {
			expect(turns(child).map((line) => line.answer)).toEqual(
				["Oslo", "Rome", "Kyiv", "Doha", "Bern"].map((city) => `Forecast: sunny in ${city}.`),
			);
			expect(turns(child).map((line) => line.asked)).toEqual(cities(`${prefix}: weather`));
		}
		// They ran at the same time: each answered before the other had finished.
		const times = (child: Child) => turns(child).map((line) => line.at as number);
		expect(Math.min(...times(a))).toBeLessThan(Math.max(...times(b)));
		expect(Math.min(...times(b))).toBeLessThan(Math.max(...times(a)));
		const checkpointer = new StoreCheckpointer({ store: opened().store });
		const tuples = await everyCheckpoint(checkpointer, "shared");
		// Five checkpoints per turn (input, start, agent, tools, agent), eleven turns, none lost.
		expect(tuples).toHaveLength(55);
		const ids = new Set(tuples.map((tuple) => tuple.config.configurable?.checkpoint_id));
		for (const tuple of tuples) {
			const parent = tuple.parentConfig?.configurable?.checkpoint_id;
			if (parent !== undefined) expect(ids.has(parent)).toBe(true);
		}
		const sessionId = await sessionIdOf(opened().store, "shared");
		const questions = (await recordsOf(opened().store, sessionId)).flatMap((record) =>
			record.recordType === "message" && record.role === "user" ? [contentText(record.content)] : [],
		);
		expect(new Set(questions)).toEqual(
			new Set(["What is the weather in Lima?", ...cities("A: weather"), ...cities("B: weather")]),
		);
		const [report] = await opened().store.verify(sessionId);
		expect(report?.problems).toEqual([]);
	}, 120_000);

	it("a run killed with SIGKILL loses no acknowledged checkpoint, and the thread goes on", async () => {
		const child = start(
			opened().location,
			"killed",
			["ask", ...["Quito", "Lagos", "Hanoi", "Perth", "Turin", "Cusco"].map((c) => `Weather in ${c}?`)],
			{
				TOOL_DELAY_MS: "40",
			},
		);
		await expect.poll(() => child.lines.length, { timeout: 30_000, interval: 5 }).toBeGreaterThanOrEqual(2);
		child.process.kill("SIGKILL");
		await child.done;
		const answered = child.lines.map((line) => line.answer);
		const checkpointer = new StoreCheckpointer({ store: opened().store });
		const tuples = await everyCheckpoint(checkpointer, "killed");
		// Every turn the child saw finish is in the log, whole.
		const finished = tuples.filter((tuple) => tuple.metadata?.source === "loop" && tuple.pendingWrites?.length === 0);
		const answers = finished.map((tuple) => {
			const messages = tuple.checkpoint.channel_values.messages as { text: string }[];
			return messages.at(-1)?.text;
		});
		for (const answer of answered) expect(answers).toContain(answer);
		// The thread goes on from where the log ends.
		const graph = weatherGraph(checkpointer);
		const state = await graph.invoke(
			{ messages: [new HumanMessage("And in Cairo?")] },
			{ configurable: { thread_id: "killed" } },
		);
		expect(state.messages.at(-1)?.text).toBe("Forecast: sunny in Cairo.");
		const sessionId = await sessionIdOf(opened().store, "killed");
		const [report] = await opened().store.verify(sessionId);
		expect(report?.problems.filter((problem) => problem.kind === "corrupt_line" || problem.kind === "seq_gap")).toEqual(
			[],
		);
	}, 120_000);
});
