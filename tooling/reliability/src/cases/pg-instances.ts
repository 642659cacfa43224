import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { StoredRecord } from "@agent/session-format";
import { openPgStore } from "@agent/session-pg";
import { createTestDatabase, findTestPostgres, startCluster } from "@agent/session-pg/testing";
import type { CaseContext, ReliabilityCase } from "../support/case.js";
import { json, request } from "../support/http.js";
import { makeSandbox } from "../support/sandbox.js";
import { type RunningServer, startServer } from "../support/server-process.js";

interface Tally {
	ok: number;
	unavailable: number;
	refused: number;
	other: string[];
	acknowledged: Map<string, StoredRecord[]>;
}

/**
 * Two real server instances over one PostgreSQL database (a private cluster, so it can be
 * restarted): concurrent clients send turns to random sessions through random instances; a
 * third of the way in, one instance is SIGKILLed (its clients move to the other); two thirds in,
 * the database is restarted. Requests during the outage get a clear 503 (never a hang, never a
 * 500), the instance recovers on its own once the database is back, and at the end every record
 * of every acknowledged turn is stored, seqs are contiguous, and every session verifies.
 */
async function run(context: CaseContext): Promise<void> {
	const cluster = startCluster();
	if (!cluster) {
		const shared = await findTestPostgres();
		context.check(process.env.CI !== "true", "no PostgreSQL binaries to start a private cluster (CI never skips)");
		context.figure("skipped", shared ? "no PostgreSQL binaries for a restartable cluster" : "no PostgreSQL");
		return;
	}
	const database = await createTestDatabase(cluster.url, "agent_reliability");
	const sandbox = makeSandbox("pg-instances");
	writeFileSync(join(sandbox.home, "config.yaml"), "default_model: demo\n");
	const { clients, sendsPerClient, sessions: sessionCount } = context.profile.pgInstances;
	const servers: RunningServer[] = [];
	try {
		for (let i = 0; i < 2; i++) servers.push(await startServer(sandbox.home, { args: ["--store", database.url] }));
		const [a, b] = servers as [RunningServer, RunningServer];
		const ids: string[] = [];
		for (let i = 0; i < sessionCount; i++) {
			ids.push((await json<{ id: string }>((i % 2 === 0 ? a : b).url, "POST", "/api/sessions", {})).id);
		}
		const tally: Tally = { ok: 0, unavailable: 0, refused: 0, other: [], acknowledged: new Map() };
		let killed = false;
		let outage: { from: number; to?: number } | undefined;
		let firstOkAfterRestart: number | undefined;
		const total = clients * sendsPerClient;
		let sent = 0;
		const client = async (index: number) => {
			for (let n = 0; n < sendsPerClient; n++) {
				const id = ids[context.random.int(0, ids.length - 1)] as string;
				const server = killed || context.random.int(0, 1) === 0 ? b : a;
				sent++;
				if (!killed && sent >= total / 3) {
					killed = true;
					a.child.kill("SIGKILL");
					context.log("instance A SIGKILLed");
				}
				if (!outage && sent >= (2 * total) / 3) {
					outage = { from: Date.now() };
					context.log("restarting the database");
					cluster.stop();
					await new Promise((resolve) => setTimeout(resolve, 1000));
					cluster.start();
					outage.to = Date.now();
				}
				let answer: Awaited<ReturnType<typeof request>>;
				try {
					answer = await request(server.url, "POST", `/api/sessions/${id}/messages?wait=1`, {
						body: JSON.stringify({ content: `client ${index} send ${n}` }),
						timeoutMs: 120_000,
					});
				} catch (error) {
					// Only the killed instance may leave a send unanswered; a send the live one never
					// answers (a hang) is a failure, not a refusal.
					if (server === a && killed) tally.refused++;
					else tally.other.push(`no answer from ${server === a ? "A" : "B"}: ${(error as Error).message}`);
					continue;
				}
				if (answer.status === 200) {
					tally.ok++;
					if (outage?.to !== undefined && firstOkAfterRestart === undefined) firstOkAfterRestart = Date.now();
					const records = (JSON.parse(answer.text) as { records: StoredRecord[] }).records;
					tally.acknowledged.set(id, [...(tally.acknowledged.get(id) ?? []), ...records]);
				} else if (answer.status === 503) tally.unavailable++;
				else tally.other.push(`${answer.status} ${answer.code ?? ""} ${answer.text.slice(0, 200)}`);
				if (outage && outage.to === undefined) await new Promise((resolve) => setTimeout(resolve, 50));
			}
		};
		await Promise.all(Array.from({ length: clients }, (_, index) => client(index)));
		context.check(tally.other.length === 0, `answers other than 200/503: ${tally.other.slice(0, 5).join(" | ")}`);
		context.check(tally.ok > total / 3, `only ${tally.ok} of ${total} sends succeeded`);

		// The audit, through a store of our own: every acknowledged record is there, seqs contiguous, verify clean.
		const store = await openPgStore({ url: database.url, maxConnections: 2 });
		let lost = 0;
		try {
			for (const id of ids) {
				const stored: StoredRecord[] = [];
				for await (const record of store.read(id)) stored.push(record);
				context.check(
					stored.every((record, index) => record.seq === index + 1),
					`session ${id}: seqs are not 1..${stored.length}`,
				);
				const bySeq = new Map(stored.map((record) => [record.seq, JSON.stringify(record)]));
				for (const record of tally.acknowledged.get(id) ?? []) {
					if (bySeq.get(record.seq) !== JSON.stringify(record)) lost++;
				}
				const [report] = await store.verify(id);
				context.check(report?.ok === true, `session ${id} does not verify: ${JSON.stringify(report?.problems)}`);
			}
		} finally {
			await store.close();
		}
		context.check(lost === 0, `${lost} acknowledged record(s) missing or changed`);
		context.figure("sends", total);
		context.figure("turns acknowledged (200)", tally.ok);
		context.figure("clear 503s while the database restarted", tally.unavailable);
		context.figure("sends to the SIGKILLed instance refused", tally.refused);
		context.figure("acknowledged records lost", lost);
		if (firstOkAfterRestart !== undefined && outage?.to !== undefined) {
			context.figure("first turn acknowledged after the database was back (ms)", firstOkAfterRestart - outage.to);
		}
	} finally {
		for (const server of servers) if (!server.child.hasExited) server.child.kill("SIGKILL");
		await database.drop().catch(() => undefined);
		sandbox.remove();
	}
}

export const pgInstances: ReliabilityCase = { name: "pg-instances", run };
