import { readFileSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import type { SessionMetadata } from "@agent/session-format";
import { createFileStore, type FileSessionStore } from "@agent/session-fs";
import { acksOf } from "../support/acks.js";
import { auditSession } from "../support/audit.js";
import type { CaseContext, ReliabilityCase } from "../support/case.js";
import { Child } from "../support/child.js";
import { payloadRecord } from "../support/payload.js";
import { makeSandbox } from "../support/sandbox.js";
import { writerConfig } from "../support/writer-config.js";

/** The facts of metadata.json that come from the log, which a rebuild must get back. */
const DERIVED: (keyof SessionMetadata)[] = ["lastSeq", "logBytes", "messageCount", "lastMessageAt", "name", "model"];

interface Tally {
	lagging: number;
	damaged: number;
	rebuilt: number;
}

/**
 * A crash between an append and its metadata write leaves metadata.json behind the log: the
 * next open must see it (the cache records the log's length) and bring it up to date, exactly as
 * a rebuild from the log would. Writers are SIGKILLed holding a lease whose metadata writes are
 * deferred (the cache lags by every record they wrote), and at random points with metadata
 * written after every append; caches are also damaged by hand (torn, empty, missing, pointing
 * past the end or into a line, naming another session).
 */
async function run(context: CaseContext): Promise<void> {
	const { rounds } = context.profile.metadataCrash;
	const sandbox = makeSandbox("metadata-crash");
	const tally: Tally = { lagging: 0, damaged: 0, rebuilt: 0 };
	try {
		const store = createFileStore({ home: sandbox.home });
		for (let round = 0; round < rounds; round++) {
			await killedWriter(context, store, round, tally);
			await damagedCache(context, store, round, tally);
		}
		context.figure(
			"writers SIGKILLed holding a lease with metadata writes deferred (cache surely behind)",
			Math.ceil(rounds / 2),
		);
		context.figure("writers SIGKILLed at a random point, metadata written after every append", Math.floor(rounds / 2));
		context.figure("caches found behind the log by the next open", tally.lagging);
		context.figure("caches damaged by hand", tally.damaged);
		context.figure("opens that matched a rebuild from the log", `${tally.rebuilt} of ${rounds * 2}`);
	} finally {
		sandbox.remove();
	}
}

async function killedWriter(context: CaseContext, store: FileSessionStore, round: number, tally: Tally): Promise<void> {
	const { id } = await store.create({ name: `crash ${round}` });
	for (let n = 0; n < context.random.int(0, 5); n++) await store.append(id, [payloadRecord("before", n)]);
	const deferred = round % 2 === 0;
	const child = Child.start(
		"writer",
		writerConfig({
			home: store.home,
			sessions: [id],
			tag: "crash",
			seed: context.random.fork(),
			viaLease: deferred,
			metadataFlushMs: deferred ? 3_600_000 : 0,
			batchMax: 3,
			bigEvery: 8,
			bigBytes: 1 << 20,
		}),
	);
	const wanted = context.random.int(1, 40);
	try {
		await child.waitForLine(() => acksOf(child.lines).length >= wanted, 60_000);
	} catch (error) {
		context.check(false, `round ${round}: the writer did not get going: ${(error as Error).message}`);
	}
	if (!deferred) await new Promise((resolve) => setTimeout(resolve, context.random.int(0, 30)));
	child.kill();
	await child.exited;
	const lastAck = acksOf(child.lines).at(-1)?.seq ?? 0;
	const paths = store.pathsOf(id);
	const cached = JSON.parse(readFileSync(paths.metadata, "utf8")) as SessionMetadata;
	const lagging = cached.logBytes < statSync(paths.log).size;
	if (lagging) tally.lagging++;
	if (deferred) context.check(lagging, `round ${round}: the cache was not behind the log after the kill`);
	await checkAgainstRebuild(
		context,
		store,
		id,
		`round ${round} (${deferred ? "deferred" : "per-append"} metadata)`,
		lastAck,
		tally,
	);
}

async function damagedCache(context: CaseContext, store: FileSessionStore, round: number, tally: Tally): Promise<void> {
	const { id } = await store.create({ name: `damaged ${round}` });
	for (let n = 0; n < context.random.int(1, 20); n++)
		await store.append(id, [payloadRecord("d", n, context.random.int(0, 300))]);
	const paths = store.pathsOf(id);
	const text = readFileSync(paths.metadata, "utf8");
	const metadata = JSON.parse(text) as SessionMetadata;
	const size = statSync(paths.log).size;
	const damage = context.random.pick([
		"torn",
		"empty",
		"missing",
		"past-end",
		"mid-line",
		"other-id",
		"garbage",
	] as const);
	tally.damaged++;
	if (damage === "torn") writeFileSync(paths.metadata, text.slice(0, context.random.int(1, text.length - 2)));
	if (damage === "empty") writeFileSync(paths.metadata, "");
	if (damage === "missing") unlinkSync(paths.metadata);
	if (damage === "past-end")
		writeFileSync(paths.metadata, JSON.stringify({ ...metadata, logBytes: size + 100, lastSeq: metadata.lastSeq + 3 }));
	if (damage === "mid-line")
		writeFileSync(paths.metadata, JSON.stringify({ ...metadata, logBytes: size - 7, lastSeq: metadata.lastSeq - 1 }));
	if (damage === "other-id")
		writeFileSync(paths.metadata, JSON.stringify({ ...metadata, id: "01JMRZ8X1Q9V5E2H3K4M6N7P8R" }));
	if (damage === "garbage") writeFileSync(paths.metadata, "\u0000\u0001{{{");
	await checkAgainstRebuild(context, store, id, `damaged cache (${damage})`, metadata.lastSeq, tally);
}

/** Open, metadata and the next append agree with the log and with a rebuild of the cache from it. */
async function checkAgainstRebuild(
	context: CaseContext,
	store: FileSessionStore,
	id: string,
	label: string,
	lastAcked: number,
	tally: Tally,
): Promise<void> {
	const audit = await auditSession(store, id);
	const opened = await store.open(id);
	const metadata = await store.metadata(id);
	context.check(
		opened.metadata.lastSeq === audit.lastSeq,
		`${label}: open says lastSeq ${opened.metadata.lastSeq}, the log ${audit.lastSeq}`,
	);
	context.check(
		audit.lastSeq >= lastAcked,
		`${label}: the log ends at seq ${audit.lastSeq}, before the last acknowledged ${lastAcked}`,
	);
	context.check(
		opened.path.at(-1)?.seq === audit.lastSeq || audit.lastSeq === 0,
		`${label}: the opened path does not end with the last record`,
	);
	const rebuilt = (await store.repair(id)).repaired ? await store.metadata(id) : undefined;
	const differs = DERIVED.filter((key) => JSON.stringify(metadata[key]) !== JSON.stringify(rebuilt?.[key]));
	context.check(
		differs.length === 0,
		`${label}: after the crash the store says ${JSON.stringify(pick(metadata, differs))}, a rebuild ${JSON.stringify(rebuilt && pick(rebuilt, differs))}`,
	);
	if (differs.length === 0 && opened.metadata.lastSeq === audit.lastSeq) tally.rebuilt++;
	const next = await store.append(id, [payloadRecord("next", 0)]);
	context.check(
		next.records[0]?.seq === audit.lastSeq + 1,
		`${label}: the next append got seq ${next.records[0]?.seq}, expected ${audit.lastSeq + 1}`,
	);
	const cached = JSON.parse(readFileSync(store.pathsOf(id).metadata, "utf8")) as SessionMetadata;
	context.check(
		cached.logBytes === statSync(store.pathsOf(id).log).size,
		`${label}: the cache still lags after the next append`,
	);
}

function pick(metadata: SessionMetadata, keys: (keyof SessionMetadata)[]): Partial<SessionMetadata> {
	return Object.fromEntries(keys.map((key) => [key, metadata[key]]));
}

export const metadataCrash: ReliabilityCase = { name: "metadata-crash", run };
