import { createFileStore } from "@agent/session-fs";
import { acksOf, errorsOf } from "../support/acks.js";
import { auditSession, lostAcks } from "../support/audit.js";
import type { CaseContext, ReliabilityCase } from "../support/case.js";
import { Child, describeExit } from "../support/child.js";
import { makeSandbox } from "../support/sandbox.js";
import { writerConfig } from "../support/writer-config.js";

/**
 * N processes append at once (a lease per append), first all to one session, then spread over
 * many: seqs are 1..N without a gap or a repeat, each writer's records keep its own order, every
 * line is a whole record (nothing interleaved), and every acknowledged seq holds what was acknowledged.
 */
async function run(context: CaseContext): Promise<void> {
	const { concurrent } = context.profile;
	await scenario(context, "one session", 1);
	await scenario(context, `${concurrent.sessions} sessions`, concurrent.sessions);
}

async function scenario(context: CaseContext, label: string, sessionCount: number): Promise<void> {
	const { writers, appendsPerWriter } = context.profile.concurrent;
	const sandbox = makeSandbox("concurrent");
	try {
		const store = createFileStore({ home: sandbox.home });
		const sessions: string[] = [];
		for (let i = 0; i < sessionCount; i++) sessions.push((await store.create()).id);
		const started = Date.now();
		const children = Array.from({ length: writers }, (_, w) => {
			// Each writer visits the sessions in its own rotation, so they meet on every session.
			const order = sessions.map((_, k) => sessions[(k + w) % sessions.length] as string);
			const config = writerConfig({
				home: sandbox.home,
				sessions: order,
				tag: `w${w}`,
				seed: context.random.fork(),
				appends: appendsPerWriter,
				waitMs: 120_000,
				metadataFlushMs: 0,
			});
			return { child: Child.start("writer", config), order, tag: `w${w}` };
		});
		for (const { child, tag } of children) {
			const exit = await child.finish(600_000);
			context.check(
				exit.code === 0,
				`${label}: writer ${tag} ended with ${describeExit(exit)}: ${child.stderr.slice(0, 500)}`,
			);
			for (const error of errorsOf(child.lines))
				context.check(false, `${label}: writer ${tag}: ${error.code} ${error.message}`);
		}
		const seconds = (Date.now() - started) / 1000;

		let total = 0;
		let orderBreaks = 0;
		let lost = 0;
		let corrupt = 0;
		let seqBreaks = 0;
		for (const [index, id] of sessions.entries()) {
			const audit = await auditSession(store, id);
			const acks = children.flatMap(({ child, order, tag }) =>
				acksOf(child.lines)
					.filter((ack) => order[ack.session] === id)
					.map((ack) => ({ seq: ack.seq, n: ack.n, tag })),
			);
			total += audit.bySeq.size;
			lost += lostAcks(audit, acks).length;
			corrupt += audit.corrupt;
			seqBreaks += audit.seqBreaks;
			context.check(
				audit.bySeq.size === acks.length && audit.lastSeq === acks.length,
				`${label}, session ${index}: ${audit.bySeq.size} records, last seq ${audit.lastSeq}, ${acks.length} acknowledged`,
			);
			const lastN = new Map<string, number>();
			for (const seq of [...audit.bySeq.keys()].sort((a, b) => a - b)) {
				const payload = audit.bySeq.get(seq);
				if (!payload) continue;
				const previous = lastN.get(payload.tag) ?? -1;
				if (payload.n <= previous) orderBreaks++;
				lastN.set(payload.tag, payload.n);
			}
		}
		const expected = writers * appendsPerWriter;
		context.check(total === expected, `${label}: ${total} records in the logs, ${expected} appended`);
		context.check(seqBreaks === 0, `${label}: seqs not contiguous (${seqBreaks} breaks)`);
		context.check(orderBreaks === 0, `${label}: ${orderBreaks} records out of their writer's order`);
		context.check(lost === 0, `${label}: ${lost} acknowledged records not in the log as acknowledged`);
		context.check(corrupt === 0, `${label}: ${corrupt} corrupt or interleaved lines`);
		context.figure(`${label}: processes x appends`, `${writers} x ${appendsPerWriter}`);
		context.figure(
			`${label}: records, seq gaps or repeats, out of order, interleaved`,
			`${total}, ${seqBreaks}, ${orderBreaks}, ${corrupt}`,
		);
		context.figure(`${label}: appends/s (a lease per append)`, Math.round(total / seconds));
	} finally {
		sandbox.remove();
	}
}

export const concurrentWriters: ReliabilityCase = { name: "concurrent-writers", run };
