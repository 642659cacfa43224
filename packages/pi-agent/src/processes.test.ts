// pi Agents in processes of their own on one session (pi-ai's faux provider, the built package):
// resume in a new process, two processes prompting at once; then the operators' CLI shows the
// conversation. On the file store and on PostgreSQL.
import { fileURLToPath } from "node:url";
import { agentSessions, Child, type ChildOutcome, onEveryStore, type StoreSpec } from "@agent/adapter-testing";
import { compact, prepareCompaction } from "@agent/compaction";
import { fauxAssistantMessage, type Message } from "@mariozechner/pi-ai";
import { afterEach, describe, expect, it } from "vitest";
import { answerWeather, faux, weatherAgent } from "../test/faux-agent.mjs";
import { persistAgent } from "./index.js";

const SCRIPT = fileURLToPath(new URL("../test/child-agent.mjs", import.meta.url));

interface AgentOutcome extends ChildOutcome {
	messages?: Message[];
	errorMessage?: string | null;
}

interface AgentTask {
	store: StoreSpec;
	sessionId: string;
	prompt?: string;
	answer?: { weather: string };
	barrier?: boolean;
}

const children: Child<AgentOutcome>[] = [];
afterEach(() => {
	faux.setResponses([]);
	for (const child of children.splice(0)) if (child.process.exitCode === null) child.process.kill("SIGKILL");
});

const SUMMARY = [
	"## Goal\n- Know the weather",
	"## Progress\n### Done\n- [x] Oslo, Rome, Kyiv",
	"## Key Decisions\n- **Ask the tool**",
	"## Next Steps\n1. Paris",
	"## Critical Context\n- Oslo is sunny",
].join("\n\n");

function start(task: AgentTask): Child<AgentOutcome> {
	const child = new Child<AgentOutcome>(SCRIPT, task);
	children.push(child);
	return child;
}

const loaded = (child: Child<AgentOutcome>) =>
	JSON.parse((child.lines.find((line) => line.startsWith("loaded ")) ?? "loaded null").slice(7)) as Message[];

onEveryStore((current) => {
	describe("persistAgent across processes", () => {
		it("a new process resumes with the same messages and goes on; the first agent reloads what it wrote", async () => {
			const { store, spec } = current();
			const agent = weatherAgent();
			const persisted = await persistAgent(agent, { store, create: { name: "forecast" } });
			answerWeather("Oslo");
			await agent.prompt("What is the weather in Oslo?");

			const child = start({
				store: spec,
				sessionId: persisted.sessionId,
				prompt: "And in Paris?",
				answer: { weather: "Paris" },
			});
			const outcome = await child.outcome;
			expect(outcome, child.stderr).toMatchObject({ ok: true, errorMessage: null });
			expect(loaded(child)).toEqual(JSON.parse(JSON.stringify(agent.state.messages)));
			await persisted.reload();
			expect(JSON.parse(JSON.stringify(agent.state.messages))).toEqual(outcome.messages);
			expect(agent.state.messages).toHaveLength(8);

			const shown = await agentSessions(spec, ["context", persisted.sessionId]);
			const roles = [...shown.matchAll(/^\[(\w+)\] #\d+$/gm)].map((match) => match[1]);
			expect(roles).toEqual([
				"user",
				"assistant",
				"toolResult",
				"assistant",
				"user",
				"assistant",
				"toolResult",
				"assistant",
			]);
			expect(shown).toContain('→ weather({"city":"Oslo"}) [call_Oslo]');
			expect(shown).toContain("The forecast: sunny in Paris.");
		});

		it("a new process resumes after a compaction: the summary first, then the messages it kept, as in this process", async () => {
			const { store, spec } = current();
			const agent = weatherAgent();
			const { sessionId } = await persistAgent(agent, { store });
			for (const city of ["Oslo", "Rome", "Kyiv"]) {
				answerWeather(city);
				await agent.prompt(`weather in ${city}?`);
			}
			const plan = prepareCompaction((await store.open(sessionId)).path, {
				enabled: true,
				reserveTokens: 500,
				keepRecentTokens: 30,
			});
			faux.setResponses(Array.from({ length: 4 }, () => fauxAssistantMessage(SUMMARY)));
			await store.append(sessionId, [await compact(plan as NonNullable<typeof plan>, { model: faux.getModel() })]);
			faux.setResponses([]);

			const child = start({ store: spec, sessionId });
			expect(await child.outcome, child.stderr).toMatchObject({ ok: true });
			const [summary, ...kept] = loaded(child);
			expect(summary).toMatchObject({
				role: "user",
				content: [{ type: "text", text: expect.stringContaining(SUMMARY) }],
			});
			expect(kept.length).toBeGreaterThan(0);
			expect(kept.length).toBeLessThan(agent.state.messages.length - 1);
			expect(kept).toEqual(JSON.parse(JSON.stringify(agent.state.messages.slice(-kept.length))));
			expect(loaded(child)).toEqual(JSON.parse(JSON.stringify(await persistAgentMessages(store, sessionId))));
		});

		it("two processes prompting at once: one run takes the lease and writes its turn whole; the other fails with SESSION_LOCKED and writes nothing", async () => {
			const { store, spec } = current();
			const agent = weatherAgent();
			const { sessionId } = await persistAgent(agent, { store });
			const racers = ["Rome", "Kyiv"].map((city) =>
				start({ store: spec, sessionId, prompt: `weather in ${city}?`, answer: { weather: city }, barrier: true }),
			);
			await Promise.all(racers.map((child) => child.waiting()));
			for (const child of racers) child.go();
			const outcomes = await Promise.all(racers.map((child) => child.outcome));
			const won = outcomes.filter((outcome) => outcome.errorMessage === null);
			const lost = outcomes.filter((outcome) => outcome.errorMessage !== null);
			expect(won).toHaveLength(1);
			expect(lost[0]?.errorMessage).toMatch(/SESSION_LOCKED|was written by someone else/);

			const { context } = await store.open(sessionId);
			const texts = context.messages.map((message) => message.role);
			expect(texts).toEqual(["user", "assistant", "toolResult", "assistant"]);
			expect(JSON.parse(JSON.stringify(won[0]?.messages))).toEqual(
				JSON.parse(JSON.stringify((await persistAgentMessages(store, sessionId)) ?? [])),
			);
		});
	});
});

/** The messages a fresh agent resumed from the session has. */
async function persistAgentMessages(store: Parameters<typeof persistAgent>[1]["store"], sessionId: string) {
	const agent = weatherAgent();
	const persisted = await persistAgent(agent, { store, sessionId });
	await persisted.dispose();
	return agent.state.messages;
}
