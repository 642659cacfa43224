import { isAgentSessionError } from "@agent/session-format";
import { createFileStore, type FileSessionStore } from "@agent/session-fs";
import type { LeaseHolderConfig } from "../children/lease-holder.js";
import { acksOf, errorsOf } from "../support/acks.js";
import { auditSession } from "../support/audit.js";
import type { CaseContext, ReliabilityCase } from "../support/case.js";
import { Child } from "../support/child.js";
import { payloadRecord } from "../support/payload.js";
import { makeSandbox } from "../support/sandbox.js";

/**
 * The write lease across processes: a holder killed with SIGKILL is replaced at once (its pid is
 * known dead on this host); a holder that is alive but silent (stopped with SIGSTOP) is replaced
 * only once its lease is stale; a live holder is never robbed, however long it holds; and a
 * holder that was silent past the stale timeout (its event loop blocked, or the process stopped)
 * finds its lease lost when it wakes: its late append is refused instead of racing the new holder.
 */
async function run(context: CaseContext): Promise<void> {
	const { staleMs, rounds } = context.profile.staleLocks;
	const sandbox = makeSandbox("stale-locks");
	try {
		const store = createFileStore({ home: sandbox.home, staleLeaseMs: staleMs });
		const dead: number[] = [];
		const frozen: number[] = [];
		for (let round = 0; round < rounds; round++) {
			dead.push(await silencedHolder(context, store, "SIGKILL"));
			frozen.push(await silencedHolder(context, store, "SIGSTOP"));
		}
		const range = (values: number[]) => `${Math.min(...values)}-${Math.max(...values)} ms`;
		context.figure("stale timeout", `${staleMs} ms`);
		context.figure(`holder killed (SIGKILL, ${rounds}x): lease recovered after`, range(dead));
		context.figure(`holder stopped (SIGSTOP, alive, ${rounds}x): lease recovered after`, range(frozen));
		await liveHolder(context, store);
		await busyHolder(context, store);
		await wokenHolder(context, store, "stopped");
		await wokenHolder(context, store, "blocked");
	} finally {
		sandbox.remove();
	}
}

/** Silences a lease holder and times how long until another writer gets the lease. */
async function silencedHolder(
	context: CaseContext,
	store: FileSessionStore,
	signal: "SIGKILL" | "SIGSTOP",
): Promise<number> {
	const { staleMs } = context.profile.staleLocks;
	const { id } = await store.create();
	const holder = startHolder(store, id, staleMs, { holdMs: -1, appendAfter: false });
	await holder.waitForLine((line) => line.startsWith("held"), 30_000);
	holder.kill(signal);
	const silencedAt = Date.now();
	try {
		await store.append(id, [payloadRecord("next", 0)], { waitMs: staleMs * 4 });
	} catch (error) {
		context.check(false, `${signal}: the lease was not recovered: ${(error as Error).message}`);
	}
	const took = Date.now() - silencedAt;
	holder.kill("SIGKILL");
	await holder.exited;
	if (signal === "SIGKILL") {
		context.check(
			took < staleMs,
			`${signal}: recovery took ${took} ms, more than the stale timeout, though the holder is dead`,
		);
	} else {
		// A live holder refreshes its lock every staleMs/2: it goes stale between staleMs/2 and staleMs after the stop.
		context.check(took >= staleMs / 2 - 100, `${signal}: the lease of a live holder was taken after only ${took} ms`);
		context.check(took <= staleMs + 3000, `${signal}: recovery took ${took} ms, stale timeout ${staleMs} ms`);
	}
	return took;
}

/** A holder that keeps its lease for three stale timeouts: every attempt to take it fails, naming the holder. */
async function liveHolder(context: CaseContext, store: FileSessionStore): Promise<void> {
	const { staleMs } = context.profile.staleLocks;
	const { id } = await store.create();
	const holdMs = staleMs * 3 + 500;
	const holder = startHolder(store, id, staleMs, { holdMs, appendAfter: true });
	await holder.waitForLine((line) => line.startsWith("held"), 30_000);
	const heldAt = Date.now();
	let refused = 0;
	let robbed = 0;
	while (Date.now() - heldAt < holdMs - 600) {
		try {
			await store.append(id, [payloadRecord("thief", refused)], { waitMs: 300 });
			robbed++;
		} catch (error) {
			const named =
				isAgentSessionError(error, "SESSION_LOCKED") && (error as Error).message.includes(String(holder.pid));
			context.check(
				named,
				`a try for a held lease failed otherwise than SESSION_LOCKED naming pid ${holder.pid}: ${(error as Error).message}`,
			);
			refused++;
		}
	}
	const waited = await store.append(id, [payloadRecord("after-holder", 0)], { waitMs: staleMs * 4 });
	await holder.finish(10_000);
	const holderAcks = acksOf(holder.lines);
	context.check(robbed === 0, `a live holder was robbed ${robbed} times`);
	context.check(
		errorsOf(holder.lines).length === 0,
		`the live holder's own append failed: ${JSON.stringify(errorsOf(holder.lines))}`,
	);
	context.check(
		holderAcks.length === 1 && (waited.records[0]?.seq ?? 0) > (holderAcks[0]?.seq ?? Infinity),
		`the holder's append (${JSON.stringify(holderAcks)}) should come before the waiting writer's (seq ${waited.records[0]?.seq})`,
	);
	context.figure(`live holder for ${holdMs} ms: tries refused with SESSION_LOCKED naming it`, refused);
	context.figure("live holder robbed", robbed);
}

/**
 * A holder appending in a loop for three stale timeouts (a bulk import: awaited appends that
 * never wait for I/O, so no timer runs between them) is alive: it must not be robbed either.
 */
async function busyHolder(context: CaseContext, store: FileSessionStore): Promise<void> {
	const { staleMs } = context.profile.staleLocks;
	const { id } = await store.create();
	const busyMs = staleMs * 3;
	const holder = startHolder(store, id, staleMs, { holdMs: 0, busyMs, appendAfter: false });
	await holder.waitForLine((line) => line.startsWith("held"), 30_000);
	let taken = 0;
	const refusals = new Map<string, number>();
	const over = () => holder.lines.some((line) => line.startsWith("busy-over"));
	while (!over() && !holder.hasExited) {
		try {
			await store.append(id, [payloadRecord("thief", taken)], { waitMs: 300 });
			taken++;
		} catch (error) {
			const code = String((error as { code?: unknown }).code);
			refusals.set(code, (refusals.get(code) ?? 0) + 1);
		}
		await new Promise((resolve) => setTimeout(resolve, 10));
	}
	await holder.finish(10_000);
	const errors = errorsOf(holder.lines);
	const audit = await auditSession(store, id);
	// Robbed: a record of another writer lies between the busy holder's first and last records.
	let lastHolderSeq = 0;
	for (const [seq, payload] of audit.bySeq) if (payload?.tag === "holder" && seq > lastHolderSeq) lastHolderSeq = seq;
	let robbed = 0;
	for (const [seq, payload] of audit.bySeq) if (payload?.tag === "thief" && seq < lastHolderSeq) robbed++;
	context.check(robbed === 0, `a holder busy appending for ${busyMs} ms was robbed ${robbed} times`);
	context.check(errors.length === 0, `the busy holder's appends failed: ${JSON.stringify(errors)}`);
	context.check(
		audit.seqBreaks === 0 && audit.corrupt === 0,
		`busy holder: ${audit.seqBreaks} seq breaks, ${audit.corrupt} corrupt`,
	);
	const appends = holder.lines.find((line) => line.startsWith("busy-over"))?.split(" ")[1];
	const refused = [...refusals.values()].reduce((a, b) => a + b, 0);
	context.check(
		[...refusals.keys()].every((code) => code === "SESSION_LOCKED"),
		`tries for a busy holder's lease failed with ${JSON.stringify([...refusals])}`,
	);
	context.figure(
		`holder appending in a loop for ${busyMs} ms: appends, tries refused, robbed`,
		`${appends}, ${refused}, ${robbed}`,
	);
}

/**
 * A holder silent past the stale timeout (stopped with SIGSTOP, or its event loop blocked by a
 * long synchronous task) looks dead: another writer takes the lease and appends. When the old
 * holder wakes, its append through the lost lease must be refused, not written next to the new holder's.
 */
async function wokenHolder(context: CaseContext, store: FileSessionStore, how: "stopped" | "blocked"): Promise<void> {
	const { staleMs } = context.profile.staleLocks;
	const { id } = await store.create();
	const silentMs = Math.round(staleMs * 2.5);
	const holder =
		how === "blocked"
			? startHolder(store, id, staleMs, { holdMs: 0, stallMs: silentMs, appendAfter: true })
			: startHolder(store, id, staleMs, { holdMs: staleMs / 4, appendAfter: true });
	await holder.waitForLine((line) => line.startsWith("held"), 30_000);
	if (how === "stopped") holder.kill("SIGSTOP");
	const lease = await store.lease(id, { waitMs: staleMs * 4 });
	let appended = 0;
	try {
		if (how === "stopped") {
			await lease.append([payloadRecord("new-holder", appended++)]);
			holder.kill("SIGCONT");
		}
		const until = Date.now() + 1000;
		while (Date.now() < until || !holder.hasExited) {
			await lease.append([payloadRecord("new-holder", appended++)]);
			await new Promise((resolve) => setTimeout(resolve, 5));
			if (Date.now() > until + 10_000) break;
		}
	} finally {
		await lease.release();
	}
	await holder.finish(10_000);
	const late = errorsOf(holder.lines);
	const audit = await auditSession(store, id);
	context.check(
		late.length === 1 && late[0]?.code === "SESSION_LOCKED",
		`the ${how} holder's late append was not refused: ${holder.lines.filter((line) => !line.startsWith("held")).join(" / ")}`,
	);
	context.check(
		audit.seqBreaks === 0 && audit.corrupt === 0,
		`after a ${how} holder: ${audit.seqBreaks} seq breaks, ${audit.corrupt} corrupt`,
	);
	context.figure(
		`holder ${how} ${how === "blocked" ? `${silentMs} ms` : "until its lease was taken"} (stale timeout ${staleMs} ms): its late append`,
		late[0]?.code === "SESSION_LOCKED" ? "refused (SESSION_LOCKED: lease lost)" : "was written",
	);
}

function startHolder(
	store: FileSessionStore,
	session: string,
	staleLeaseMs: number,
	options: Pick<LeaseHolderConfig, "holdMs" | "appendAfter" | "stallMs" | "busyMs">,
): Child {
	const config: LeaseHolderConfig = { home: store.home, session, tag: "holder", staleLeaseMs, ...options };
	return Child.start("lease-holder", config);
}

export const staleLocks: ReliabilityCase = { name: "stale-locks", run };
