import { existsSync, readdirSync, readFileSync, statSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { createFileStore, type FileSessionStore, sessionsRoot } from "@agent/session-fs";
import type { LimitedWriterConfig } from "../children/limited-writer.js";
import { acksOf, errorsOf } from "../support/acks.js";
import { auditSession, lostAcks } from "../support/audit.js";
import type { CaseContext, ReliabilityCase } from "../support/case.js";
import { Child, describeExit } from "../support/child.js";
import { payloadRecord } from "../support/payload.js";
import { makeSandbox } from "../support/sandbox.js";
import { fillFilesystem, mountTinyFilesystem } from "../support/tiny-fs.js";

const BLOCK = 512;

interface Tally {
	failedAppends: number;
	acked: number;
	lost: number;
	resumed: number;
}

/**
 * A writer whose appends stop fitting: under `ulimit -f` (EFBIG; the shell ignores SIGXFSZ so the
 * write fails instead of killing it), and on a tiny tmpfs (ENOSPC) when this machine lets us mount
 * one. The append fails with a clear STORAGE_FAILURE, nothing half-written stays in the log,
 * nothing acknowledged is lost, and once there is room again the session reads and appends.
 */
async function run(context: CaseContext): Promise<void> {
	const tally: Tally = { failedAppends: 0, acked: 0, lost: 0, resumed: 0 };
	const { rounds } = context.profile.diskFull;
	for (let round = 0; round < rounds; round++) await fileSizeLimitRound(context, round, tally);
	context.figure("file-size-limit rounds (ulimit -f, EFBIG)", rounds);
	const tiny = await tinyFilesystemRound(context, tally);
	context.figure("tiny tmpfs round (ENOSPC)", tiny ? "ran" : "skipped: this machine may not mount a tmpfs");
	context.figure("appends refused with a clear STORAGE_FAILURE", tally.failedAppends);
	context.figure("acknowledged records", tally.acked);
	context.figure("acknowledged records lost", tally.lost);
	context.figure("sessions that read and appended again once there was room", tally.resumed);
}

async function fileSizeLimitRound(context: CaseContext, round: number, tally: Tally): Promise<void> {
	const sandbox = makeSandbox("disk-full");
	try {
		const store = createFileStore({ home: sandbox.home });
		const { id } = await store.create();
		// Every fourth round the limit is one block: smaller than metadata.json, so metadata writes fail too.
		const metadataTooBig = round % 4 === 0;
		const seedRecords = metadataTooBig ? 0 : context.random.int(0, 30);
		for (let n = 0; n < seedRecords; n++)
			await store.append(id, [payloadRecord("seed", n, context.random.int(0, 500))]);
		const size = statSync(store.pathsOf(id).log).size;
		const blocks = metadataTooBig ? 1 : Math.ceil((size + context.random.int(100, 20_000)) / BLOCK);
		const config: LimitedWriterConfig = {
			home: sandbox.home,
			session: id,
			tag: "limited",
			firstN: 0,
			stopAfterErrors: 3,
			maxAppends: 500,
			batchMax: context.random.pick([1, 4]),
			padMax: metadataTooBig ? 60 : context.random.pick([200, 3000]),
			durability: context.random.chance(0.5) ? "fsync" : "write",
			seed: context.random.fork(),
		};
		const label = `limit ${blocks * BLOCK} bytes (round ${round})`;
		const child = Child.start("limited-writer", config, { fileSizeBlocks: blocks });
		const exit = await child.finish(120_000);
		context.check(
			exit.code === 0,
			`${label}: the writer ended with ${describeExit(exit)} (SIGXFSZ must not kill it): ${child.stderr.slice(0, 300)} ${child.lines.slice(-6).join(" / ")}`,
		);
		checkErrors(context, label, child, /EFBIG|file too large/);
		const log = readFileSync(store.pathsOf(id).log);
		context.check(log.length <= blocks * BLOCK, `${label}: the log grew to ${log.length} bytes`);
		context.check(log.length === 0 || log[log.length - 1] === 0x0a, `${label}: the log ends inside a line`);
		await checkRecovered(context, label, store, id, child, tally);
	} finally {
		sandbox.remove();
	}
}

async function tinyFilesystemRound(context: CaseContext, tally: Tally): Promise<boolean> {
	const sandbox = makeSandbox("tiny-fs");
	const mountPoint = join(sandbox.root, "mnt");
	const mount = mountTinyFilesystem(mountPoint, 512 << 10);
	if (!mount) {
		sandbox.remove();
		return false;
	}
	try {
		const home = join(mountPoint, "home");
		const store = createFileStore({ home });
		const { id } = await store.create();
		for (let n = 0; n < 20; n++) await store.append(id, [payloadRecord("seed", n, 300)]);
		const filler = join(mountPoint, "filler");
		fillFilesystem(filler);
		const config: LimitedWriterConfig = {
			home,
			session: id,
			tag: "limited",
			firstN: 0,
			stopAfterErrors: 3,
			maxAppends: 200,
			batchMax: 3,
			padMax: 3000,
			durability: "write",
			seed: context.random.fork(),
		};
		const child = Child.start("limited-writer", config);
		const exit = await child.finish(120_000);
		const label = "tiny tmpfs";
		context.check(
			exit.code === 0,
			`${label}: the writer ended with ${describeExit(exit)}: ${child.stderr.slice(0, 300)}`,
		);
		checkErrors(context, label, child, /ENOSPC|no space left/i);
		unlinkSync(filler);
		await checkRecovered(context, label, store, id, child, tally);
		return true;
	} finally {
		mount.unmount();
		sandbox.remove();
	}
}

/** Every failure is a STORAGE_FAILURE that names the cause and says what to do. */
function checkErrors(context: CaseContext, label: string, child: Child, cause: RegExp): void {
	const errors = errorsOf(child.lines);
	context.check(errors.length > 0, `${label}: no append failed`);
	for (const error of errors) {
		context.check(
			error.code === "STORAGE_FAILURE" && cause.test(error.message) && /free disk space/i.test(error.message),
			`${label}: an unclear append error: ${error.code} ${error.message}`,
		);
	}
	for (const line of child.lines.filter((text) => text.startsWith("op ") && !text.endsWith(" ok"))) {
		context.check(/^op \w+ error STORAGE_FAILURE /.test(line) && cause.test(line), `${label}: ${line}`);
	}
}

/** Nothing acknowledged lost, nothing torn; the session reads, and appends once there is room. */
async function checkRecovered(
	context: CaseContext,
	label: string,
	store: FileSessionStore,
	id: string,
	child: Child,
	tally: Tally,
): Promise<void> {
	tally.failedAppends += errorsOf(child.lines).length;
	const acks = acksOf(child.lines).map((ack) => ({ seq: ack.seq, n: ack.n, tag: "limited" }));
	tally.acked += acks.length;
	const before = await auditSession(store, id);
	const lost = lostAcks(before, acks);
	tally.lost += lost.length;
	context.check(lost.length === 0, `${label}: acknowledged records lost: ${JSON.stringify(lost.slice(0, 5))}`);
	context.check(
		before.corrupt === 0 && before.tornTails === 0,
		`${label}: ${JSON.stringify(before.problems.slice(0, 3))}`,
	);
	context.check(before.seqBreaks === 0, `${label}: seqs not contiguous`);
	const metadata = await store.metadata(id);
	context.check(
		metadata.lastSeq === before.lastSeq,
		`${label}: metadata says lastSeq ${metadata.lastSeq}, the log ${before.lastSeq}`,
	);
	const sessions = readdirSync(sessionsRoot(store.home)).filter((name) => !name.startsWith("."));
	const created = child.lines.includes("op create ok") ? 2 : 1;
	context.check(
		sessions.length === created,
		`${label}: ${sessions.length} session directories, expected ${created} (a failed create left one behind?)`,
	);
	try {
		const result = await store.append(id, [payloadRecord("after", 0)]);
		const after = await auditSession(store, id);
		const resumed = result.records[0]?.seq === before.lastSeq + 1 && after.corrupt === 0 && after.seqBreaks === 0;
		context.check(resumed, `${label}: the append after room returned got seq ${result.records[0]?.seq}`);
		if (resumed) tally.resumed++;
	} catch (error) {
		context.check(false, `${label}: appending once there was room failed: ${(error as Error).message}`);
	}
	context.check(!existsSync(join(store.pathsOf(id).dir, "lease.lock")), `${label}: the lease was left held`);
}

export const diskFull: ReliabilityCase = { name: "disk-full", run };
