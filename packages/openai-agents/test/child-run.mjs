// A process of its own for the multi-process tests: it opens the store the parent names, does one
// thing with a StoreSession of the built package, and prints one JSON line with the outcome.
// With `barrier`, it prints "waiting" at the point that must line up with the other processes
// (the model's answer, or the pop) and goes on only when the parent writes "go"; with `hold`, a
// transaction prints "waiting" once applied.

import { StoreSession } from "@agent/openai-agents";
import { createFileStore } from "@agent/session-fs";
import { openPgStore } from "@agent/session-pg";
import { run } from "@openai/agents-core";
import { FakeModel, weatherAgent } from "./fake-model.mjs";

const task = JSON.parse(process.argv[2]);
const store =
	task.store.kind === "file" ? createFileStore({ home: task.store.home }) : await openPgStore({ url: task.store.url });

const go = () =>
	new Promise((resolve) => {
		process.stdout.write("waiting\n");
		process.stdin.setEncoding("utf8").on("data", (chunk) => {
			if (chunk.includes("go")) resolve();
		});
	});

const model = new FakeModel({ beforeAnswer: task.barrier ? go : undefined });
const session = new StoreSession({ store, sessionId: task.sessionId, waitMs: 60_000 });

async function act() {
	switch (task.action) {
		case "run": {
			const turn = () => run(weatherAgent(model), task.input, { session });
			const result = task.exclusive ? await session.withLease(turn) : await turn();
			return { finalOutput: result.finalOutput };
		}
		case "pop":
			if (task.barrier) await go();
			return { popped: (await session.popItem()) ?? null };
		case "transaction":
			await session.applyHistoryTransaction(task.args);
			// `hold`: applied, then stopped here until the parent kills the process (a crash before the
			// caller heard back, so the caller retries).
			if (task.hold) await go();
			return { items: await session.getItems() };
		default:
			throw new Error(`unknown action ${task.action}`);
	}
}

try {
	const result = await act();
	process.stdout.write(`${JSON.stringify({ ok: true, ...result, inputs: model.inputs })}\n`);
} catch (error) {
	process.stdout.write(`${JSON.stringify({ ok: false, code: error.code ?? null, message: String(error.message) })}\n`);
} finally {
	await store.close?.();
	process.stdin.destroy();
}
