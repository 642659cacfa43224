import { createFileStore } from "@agent/session-fs";
import type { TearerConfig } from "../children/tearer.js";
import { acksOf, errorsOf } from "../support/acks.js";
import { auditSession, lostAcks } from "../support/audit.js";
import type { CaseContext, ReliabilityCase } from "../support/case.js";
import { Child } from "../support/child.js";
import { payloadRecord } from "../support/payload.js";
import { makeSandbox } from "../support/sandbox.js";
import { strayFiles, tornTailsCut } from "../support/torn-tails.js";
import { writerConfig } from "../support/writer-config.js";

interface TaggedAck {
	seq: number;
	n: number;
	tag: string;
}

const STALE_MS = 2000;

/**
 * Writer processes killed with SIGKILL at random points (while taking the lease, writing a
 * multi-MiB record, between an append and its metadata write, ...), several at once on the same
 * sessions; some are killed inside a write on purpose (tearer). Every acknowledged record must
 * be in the log, nothing corrupt comes back, torn tails are cut, and appends go on.
 */
async function run(context: CaseContext): Promise<void> {
	const { torture } = context.profile;
	const sandbox = makeSandbox("torture");
	try {
		const store = createFileStore({ home: sandbox.home, staleLeaseMs: STALE_MS });
		const sessions: string[] = [];
		for (let i = 0; i < torture.sessions; i++) sessions.push((await store.create({ name: `torture ${i}` })).id);
		const acks = sessions.map((): TaggedAck[] => []);
		const stats = { kills: 0, children: 0, withAcks: 0, tears: 0, errors: 0, notReady: 0 };
		let next = 0;

		const slot = async (): Promise<void> => {
			while (stats.kills < torture.kills) {
				const index = context.random.int(0, sessions.length - 1);
				const session = sessions[index] as string;
				const tag = `c${next++}`;
				const tear = context.random.chance(0.1);
				const child = tear
					? Child.start("tearer", {
							home: sandbox.home,
							session,
							tag,
							keep: context.random.next(),
							staleLeaseMs: STALE_MS,
						} satisfies TearerConfig)
					: Child.start(
							"writer",
							writerConfig({
								home: sandbox.home,
								sessions: [session],
								tag,
								seed: context.random.fork(),
								batchMax: context.random.pick([1, 1, 3, 8]),
								bigEvery: 5,
								bigBytes: 4 << 20,
								durability: context.random.chance(0.3) ? "fsync" : "write",
								viaLease: context.random.chance(0.3),
								metadataFlushMs: context.random.pick([0, 100, 5000]),
								staleLeaseMs: STALE_MS,
							}),
						);
				stats.children++;
				try {
					await child.waitForLine((line) => line.startsWith(tear ? "torn" : "ready"), 60_000);
					if (tear) stats.tears++;
					else await sleepMs(context.random.int(0, torture.maxKillDelayMs));
				} catch (error) {
					stats.notReady++;
					context.check(false, `child ${tag} never got going: ${(error as Error).message}`);
				}
				stats.kills++;
				child.kill();
				await child.exited;
				const childAcks = acksOf(child.lines);
				if (childAcks.length > 0) stats.withAcks++;
				for (const ack of childAcks) acks[index]?.push({ seq: ack.seq, n: ack.n, tag });
				for (const error of errorsOf(child.lines)) {
					stats.errors++;
					context.check(false, `writer ${tag} failed: ${error.code} ${error.message}`);
				}
			}
		};
		await Promise.all(Array.from({ length: torture.parallel }, slot));

		let records = 0;
		let lost = 0;
		let corrupt = 0;
		let tornRecovered = 0;
		let acked = 0;
		for (const [index, id] of sessions.entries()) {
			const before = await auditSession(store, id);
			const final = await store.append(id, [payloadRecord("final", 0)]);
			context.check(
				final.records[0]?.seq === before.lastSeq + 1,
				`session ${index}: the append after the last kill got seq ${final.records[0]?.seq}, expected ${before.lastSeq + 1}`,
			);
			const audit = await auditSession(store, id);
			const sessionAcks = acks[index] ?? [];
			const missing = lostAcks(audit, sessionAcks);
			acked += sessionAcks.length;
			records += audit.bySeq.size;
			lost += missing.length;
			corrupt += audit.corrupt;
			const dir = store.pathsOf(id).dir;
			tornRecovered += tornTailsCut(dir);
			context.check(
				missing.length === 0,
				`session ${index}: acknowledged records lost: ${JSON.stringify(missing.slice(0, 5))}`,
			);
			context.check(
				audit.corrupt === 0,
				`session ${index}: corrupt lines ${JSON.stringify(audit.problems.slice(0, 3))}`,
			);
			context.check(audit.seqBreaks === 0, `session ${index}: seqs not contiguous (${audit.seqBreaks} breaks)`);
			context.check(audit.tornTails === 0, `session ${index}: a torn tail is still there after an append`);
			const metadata = await store.metadata(id);
			context.check(
				metadata.lastSeq === audit.lastSeq,
				`session ${index}: metadata lastSeq ${metadata.lastSeq}, log ${audit.lastSeq}`,
			);
			const verify = (await store.verify(id))[0];
			context.check(
				verify?.ok === true,
				`session ${index}: verify found ${JSON.stringify(verify?.problems.slice(0, 3))}`,
			);
			const stray = strayFiles(dir);
			context.check(
				stray.length === 0,
				`session ${index}: files left behind by killed writers: ${stray.slice(0, 5).join(", ")}`,
			);
		}
		context.check(stats.kills >= torture.kills, `only ${stats.kills} kills`);
		context.figure("SIGKILLs", stats.kills);
		context.figure("writer processes", stats.children);
		context.figure("writers that acknowledged at least one append", stats.withAcks);
		context.figure("kills inside a write (tearer)", stats.tears);
		context.figure("acknowledged records", acked);
		context.figure("records in the logs", records);
		context.figure("acknowledged records lost", lost);
		context.figure("corrupt records returned", corrupt);
		context.figure("torn tails cut by the next writer", tornRecovered);
		context.figure("writer errors", stats.errors);
	} finally {
		sandbox.remove();
	}
}

function sleepMs(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

export const sigkillTorture: ReliabilityCase = { name: "sigkill-torture", run };
