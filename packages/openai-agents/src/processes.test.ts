// Several processes on one session, each a real Node process with the real SDK on the built
// package: resume, racing runs, racing pops, a transaction replayed elsewhere; then the operators'
// CLI shows what they wrote. On the file store and on PostgreSQL.

import { agentSessions, type Child, onEveryStore } from "@agent/adapter-testing";
import type { AgentInputItem } from "@openai/agents-core";
import { run } from "@openai/agents-core";
import { afterEach, describe, expect, it } from "vitest";
import { FakeModel, TOOL_ROUND, weatherAgent } from "../test/fake-model.mjs";
import { StoreSession } from "./index.js";
import { type ChildTask, childRun, type RunOutcome } from "./test-children.js";

const children: Child<RunOutcome>[] = [];
afterEach(() => {
	for (const child of children.splice(0)) if (child.process.exitCode === null) child.process.kill("SIGKILL");
});

function start(task: ChildTask): Child<RunOutcome> {
	const child = childRun(task);
	children.push(child);
	return child;
}

const typeOf = (item: unknown) => (item as { type?: string }).type ?? "message";

onEveryStore((current) => {
	describe("StoreSession across processes", () => {
		it("resumes in a new process: the child's run sees the parent's turn, and the parent then sees the child's", async () => {
			const { store, spec } = current();
			const session = new StoreSession({ store, create: { name: "resumed" } });
			await run(weatherAgent(new FakeModel()), "weather in Oslo", { session });
			const sessionId = await session.getSessionId();
			const outcome = await start({ store: spec, sessionId, action: "run", input: "And tomorrow?" }).outcome;
			expect(outcome).toMatchObject({ ok: true, finalOutput: "You said: And tomorrow?" });
			const seen = outcome.inputs?.[0] as AgentInputItem[];
			expect(seen.slice(0, 5)).toEqual((await session.getItems()).slice(0, 5));
			expect((await session.getItems()).map(typeOf)).toEqual([...TOOL_ROUND, "message", "message"]);

			const shown = await agentSessions(spec, ["context", sessionId]);
			const roles = [...shown.matchAll(/^\[(\w+)\] #\d+$/gm)].map((match) => match[1]);
			expect(roles).toEqual(["user", "assistant", "toolResult", "assistant", "user", "assistant"]);
			expect(shown).toContain('→ weather({"city":"Oslo"}) [call_1]');
			expect(shown).toContain("The forecast: sunny in Oslo.");
			expect(shown).toContain("You said: And tomorrow?");
		});

		it("two runs racing from two processes never interleave: the one that writes second fails with SESSION_LOCKED and writes nothing", async () => {
			const { store, spec } = current();
			const session = new StoreSession({ store });
			await session.addItems([{ role: "user", content: "start" }]);
			const sessionId = await session.getSessionId();
			const racers = ["first", "second"].map((input) =>
				start({ store: spec, sessionId, action: "run", input, barrier: true }),
			);
			// Both have read the history and are waiting for their model's answer.
			await Promise.all(racers.map((child) => child.waiting()));
			for (const child of racers) child.go();
			const outcomes = await Promise.all(racers.map((child) => child.outcome));
			const won = outcomes.filter((outcome) => outcome.ok);
			const lost = outcomes.filter((outcome) => !outcome.ok);
			expect(won).toHaveLength(1);
			expect(lost).toEqual([
				expect.objectContaining({
					code: "SESSION_LOCKED",
					message: expect.stringContaining("nothing of this run was written"),
				}),
			]);
			const winner = won[0]?.finalOutput?.replace("You said: ", "");
			expect(await session.getItems()).toEqual([
				{ role: "user", content: "start" },
				{ type: "message", role: "user", content: winner },
				expect.objectContaining({ role: "assistant", content: [{ type: "output_text", text: `You said: ${winner}` }] }),
			]);
		});

		it("runs under withLease take turns across processes: the second waits, then sees the first's turn", async () => {
			const { store, spec } = current();
			const session = new StoreSession({ store });
			await session.addItems([{ role: "user", content: "start" }]);
			const sessionId = await session.getSessionId();
			const racers = ["one", "two"].map((input) =>
				start({ store: spec, sessionId, action: "run", input, barrier: true, exclusive: true }),
			);
			await Promise.race(racers.map((child) => child.waiting()));
			const first = racers.find((child) => child.isWaiting) as Child<RunOutcome>;
			const second = racers.find((child) => child !== first) as Child<RunOutcome>;
			// While the first holds the lease, the second never gets as far as its model.
			await new Promise((resolve) => setTimeout(resolve, 700));
			expect(second.isWaiting).toBe(false);
			first.go();
			expect(await first.outcome).toMatchObject({ ok: true });
			await second.waiting();
			second.go();
			const last = await second.outcome;
			expect(last).toMatchObject({ ok: true });
			const items = await session.getItems();
			expect(items).toHaveLength(5);
			expect(last.inputs?.[0]).toEqual([...items.slice(0, 3), items[3]]);
		});

		it("two processes popping at once never get the same item", async () => {
			const { store, spec } = current();
			const session = new StoreSession({ store });
			await session.addItems(["a", "b", "c"].map((content) => ({ role: "user", content })));
			const sessionId = await session.getSessionId();
			const poppers = [0, 1].map(() => start({ store: spec, sessionId, action: "pop", barrier: true }));
			await Promise.all(poppers.map((child) => child.waiting()));
			for (const child of poppers) child.go();
			const popped = (await Promise.all(poppers.map((child) => child.outcome))).map(
				(outcome) => (outcome.popped as { content: string }).content,
			);
			expect(popped.sort()).toEqual(["b", "c"]);
			expect(await session.getItems()).toEqual([{ role: "user", content: "a" }]);
		});

		it("a transaction applied in one process and replayed in another is applied once", async () => {
			const { store, spec } = current();
			const session = new StoreSession({ store });
			await session.addItems([{ role: "user", content: "q" }]);
			const sessionId = await session.getSessionId();
			const args = {
				operationId: "turn-7",
				transaction: { type: "append_items", items: [{ role: "user", content: "once" }] },
			};
			const first = await start({ store: spec, sessionId, action: "transaction", args }).outcome;
			const replay = await start({ store: spec, sessionId, action: "transaction", args }).outcome;
			expect(first).toMatchObject({ ok: true });
			expect(replay).toEqual({ ...first, inputs: [] });
			expect(await session.getItems()).toEqual([
				{ role: "user", content: "q" },
				{ role: "user", content: "once" },
			]);
		});

		it("a transaction whose process was killed (SIGKILL) after applying it is recognized on retry and applied once", async () => {
			const { store, spec } = current();
			const session = new StoreSession({ store });
			await session.addItems([{ role: "user", content: "q" }]);
			const sessionId = await session.getSessionId();
			const args = {
				operationId: "turn-9",
				transaction: { type: "append_items", items: [{ role: "user", content: "after the crash" }] },
			};
			const crashed = start({ store: spec, sessionId, action: "transaction", args, hold: true });
			await crashed.waiting();
			expect(crashed.isWaiting).toBe(true); // applied; the caller never heard back
			crashed.process.kill("SIGKILL");
			await crashed.outcome.catch(() => undefined);

			const retry = await start({ store: spec, sessionId, action: "transaction", args }).outcome;
			expect(retry).toMatchObject({ ok: true, inputs: [] });
			expect(await session.getItems()).toEqual([
				{ role: "user", content: "q" },
				{ role: "user", content: "after the crash" },
			]);
		});
	});
});
