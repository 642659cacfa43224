import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { createFileStore } from "@agent/session-fs";
import type { CaseContext, ReliabilityCase } from "../support/case.js";
import { json } from "../support/http.js";
import { makeSandbox } from "../support/sandbox.js";
import { startServer } from "../support/server-process.js";

const GRACE_SECONDS = 1;
/** Grace, then the abort lands at the demo model's next chunk (under 1.5 s at 3 tokens a second). */
const PROMPT_EXIT_MS = 6000;
const SESSIONS = 3;

/**
 * SIGTERM to the real server while turns stream (the demo model slowed to 3 tokens a second, so
 * a reply would take some 20 s) and more are queued behind them, at a random moment: the process
 * exits 0 soon after its grace period, every log verifies, every assistant reply is either whole
 * or marked aborted, and every lease is free for the next writer. One round in three has no turn
 * running, and exits at once.
 */
async function run(context: CaseContext): Promise<void> {
	const exitTimes: number[] = [];
	let aborted = 0;
	let completed = 0;
	for (let round = 0; round < context.profile.shutdown.rounds; round++) {
		const busy = round % 3 !== 2;
		const sandbox = makeSandbox("shutdown");
		writeFileSync(join(sandbox.home, "config.yaml"), "default_model: demo\n");
		const server = await startServer(sandbox.home, {
			args: ["--shutdown-grace", String(GRACE_SECONDS)],
			env: { AGENT_DEMO_TOKENS_PER_SECOND: "3" },
		});
		try {
			const ids: string[] = [];
			for (let i = 0; i < SESSIONS; i++) {
				ids.push((await json<{ id: string }>(server.url, "POST", "/api/sessions", {})).id);
			}
			if (busy) {
				for (const id of ids) {
					for (const content of ["tell me a long story", "and then another one"]) {
						await json(server.url, "POST", `/api/sessions/${id}/messages`, { content });
					}
				}
				for (const id of ids) await waitForFirstRecord(server.url, id);
				await new Promise((resolve) => setTimeout(resolve, context.random.int(0, 1500)));
			}
			const signalled = Date.now();
			server.child.kill("SIGTERM");
			const exit = await server.child.finish(30_000);
			const tookMs = Date.now() - signalled;
			exitTimes.push(tookMs);
			context.check(exit.code === 0, `round ${round}: the server exited with ${JSON.stringify(exit)}`);
			const limit = busy ? PROMPT_EXIT_MS : 2000;
			context.check(
				tookMs < limit,
				`round ${round}: the server took ${tookMs} ms to exit after SIGTERM (limit ${limit})`,
			);

			const store = createFileStore({ home: sandbox.home });
			for (const id of ids) {
				const [report] = await store.verify(id);
				context.check(
					report?.ok === true,
					`round ${round}: session ${id} does not verify: ${JSON.stringify(report?.problems)}`,
				);
				for await (const record of store.read(id)) {
					if (record.recordType !== "message" || record.role !== "assistant") continue;
					if (record.stopReason === "aborted") aborted++;
					else if (record.stopReason === "stop") completed++;
					else context.check(false, `round ${round}: an assistant reply ended ${record.stopReason}`);
				}
				try {
					const lease = await store.lease(id, { waitMs: 0 });
					await lease.release();
				} catch (error) {
					context.check(false, `round ${round}: session ${id}'s lease was not free: ${(error as Error).message}`);
				}
			}
		} finally {
			if (!server.child.hasExited) await server.stop();
			sandbox.remove();
		}
	}
	context.figure("SIGTERMs (one in three with no turn running)", exitTimes.length);
	context.figure("exit after SIGTERM, ms (min / max)", `${Math.min(...exitTimes)} / ${Math.max(...exitTimes)}`);
	context.figure("grace period, s", GRACE_SECONDS);
	context.figure("assistant replies stored aborted / whole", `${aborted} / ${completed}`);
}

async function waitForFirstRecord(base: string, id: string): Promise<void> {
	const deadline = Date.now() + 20_000;
	while (Date.now() < deadline) {
		const metadata = await json<{ lastSeq: number }>(base, "GET", `/api/sessions/${id}`);
		if (metadata.lastSeq >= 1) return;
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
	throw new Error(`session ${id}: the turn never stored its user message`);
}

export const shutdown: ReliabilityCase = { name: "shutdown", run };
