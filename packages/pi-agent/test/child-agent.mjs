// A process of its own for the multi-process tests: a pi Agent on pi-ai's faux provider,
// persisted with the built package in the session the parent names. It prints the messages it
// loaded ("loaded <json>"); with `barrier` it then waits for "go" on stdin; with `prompt` it runs
// one turn (scripted by `answer`) and prints the outcome as one JSON line.

import { persistAgent } from "@agent/pi-agent";
import { createFileStore } from "@agent/session-fs";
import { openPgStore } from "@agent/session-pg";
import { answerEcho, answerWeather, weatherAgent } from "./faux-agent.mjs";

const task = JSON.parse(process.argv[2]);
const store =
	task.store.kind === "file" ? createFileStore({ home: task.store.home }) : await openPgStore({ url: task.store.url });
const say = (line) => process.stdout.write(`${line}\n`);

try {
	const agent = weatherAgent();
	const persisted = await persistAgent(agent, { store, sessionId: task.sessionId, waitMs: 60_000 });
	say(`loaded ${JSON.stringify(agent.state.messages)}`);
	if (task.barrier) {
		say("waiting");
		await new Promise((resolve) =>
			process.stdin.setEncoding("utf8").on("data", (chunk) => chunk.includes("go") && resolve()),
		);
	}
	if (task.prompt) {
		if (task.answer?.weather) answerWeather(task.answer.weather);
		else answerEcho();
		await agent.prompt(task.prompt);
	}
	await persisted.dispose();
	say(JSON.stringify({ ok: true, messages: agent.state.messages, errorMessage: agent.state.errorMessage ?? null }));
} catch (error) {
	say(JSON.stringify({ ok: false, code: error.code ?? null, message: String(error.message) }));
} finally {
	await store.close?.();
	process.stdin.destroy();
}
