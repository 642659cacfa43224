import { appendFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createFileStore } from "@agent/session-fs";
import type { CaseContext, ReliabilityCase } from "../support/case.js";
import { json, request } from "../support/http.js";
import { makeSandbox } from "../support/sandbox.js";
import { startServer } from "../support/server-process.js";

/** Longer than the server's cap on a record (32 MiB), so its store must skip the line, not decode it. */
const GIANT_BYTES = 48 << 20;

/**
 * A log holding one giant line (written by another tool: 48 MiB of a single record), served by
 * the real server: health checks keep answering fast while the session's records, context and
 * listing are read (the line is reported and skipped, never decoded on the event loop), GET
 * /records names the line in `problems`, and a turn on the session still runs.
 */
async function run(context: CaseContext): Promise<void> {
	const sandbox = makeSandbox("giant-line");
	writeFileSync(join(sandbox.home, "config.yaml"), "default_model: demo\n");
	const store = createFileStore({ home: sandbox.home });
	const { id } = await store.create({ model: "demo" });
	await store.append(id, [{ recordType: "message", role: "user", content: [{ type: "text", text: "before" }] }]);
	const giant = JSON.stringify({
		recordType: "message",
		schemaVersion: 1,
		seq: 2,
		timestamp: new Date().toISOString(),
		role: "assistant",
		content: [{ type: "text", text: "x".repeat(GIANT_BYTES) }],
	});
	appendFileSync(store.pathsOf(id).log, `${giant}\n`);
	const server = await startServer(sandbox.home);
	try {
		let slowest = 0;
		let probing = true;
		const probes = (async () => {
			while (probing) {
				const started = performance.now();
				const health = await request(server.url, "GET", "/healthz", { timeoutMs: 10_000 }).catch((error: Error) => ({
					status: 0,
					text: error.message,
				}));
				slowest = Math.max(slowest, performance.now() - started);
				context.check(health.status === 200, `/healthz answered ${health.status} ${health.text.slice(0, 100)}`);
				await new Promise((resolve) => setTimeout(resolve, 20));
			}
		})();
		const records = await json<{ records: Array<{ seq: number }>; problems?: Array<{ line: number; code: string }> }>(
			server.url,
			"GET",
			`/api/sessions/${id}/records`,
		);
		context.check(
			records.records.map((record) => record.seq).join(",") === "1",
			`GET /records gave seqs ${records.records.map((record) => record.seq).join(",")}, not just 1`,
		);
		context.check(
			records.problems?.[0]?.line === 2,
			`GET /records did not name line 2 in its problems: ${JSON.stringify(records.problems)}`,
		);
		const opened = await request(server.url, "GET", `/api/sessions/${id}/context`);
		context.check(opened.status === 200, `GET /context answered ${opened.status}: ${opened.text.slice(0, 200)}`);
		const listed = await request(server.url, "GET", "/api/sessions");
		context.check(listed.status === 200, `GET /api/sessions answered ${listed.status}`);
		const turn = await request(server.url, "POST", `/api/sessions/${id}/messages?wait=1`, {
			body: JSON.stringify({ content: "still there?" }),
		});
		context.check(turn.status === 200, `a turn on the session answered ${turn.status}: ${turn.text.slice(0, 200)}`);
		probing = false;
		await probes;
		context.figure("giant line (bytes)", GIANT_BYTES);
		context.figure("slowest /healthz while it was served (ms)", Math.round(slowest));
		context.check(slowest < 1000, `a health check took ${Math.round(slowest)} ms while the giant line was served`);
	} finally {
		await server.stop();
		sandbox.remove();
	}
}

export const giantLine: ReliabilityCase = { name: "giant-line", run };
