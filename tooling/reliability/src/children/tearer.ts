import { appendFileSync } from "node:fs";
import { recordLine, validateRecordInput } from "@agent/session-format";
import { createFileStore, type FileSessionLease } from "@agent/session-fs";
import { payloadRecord } from "../support/payload.js";
import { configOf, say, sayError, sleep } from "./protocol.js";

export interface TearerConfig {
	home: string;
	session: string;
	tag: string;
	/** Fraction (0..1) of the next record's line, newline included, that reaches the log before the kill. */
	keep: number;
	staleLeaseMs: number;
}

/**
 * A writer killed inside its write(2): under the lease it writes the first part of the next
 * record's line straight to the log, says "torn", and waits for its SIGKILL. (A real SIGKILL
 * lands inside a write only now and then; this makes the torn tail certain.)
 */
async function main(): Promise<void> {
	const config = configOf<TearerConfig>();
	const store = createFileStore({ home: config.home, staleLeaseMs: config.staleLeaseMs, waitMs: 60_000 });
	const lease = (await store.lease(config.session)) as FileSessionLease;
	const lastSeq = await lease.run(async (writer) => writer.current.lastSeq);
	const record = validateRecordInput(payloadRecord(config.tag, 0, 300), {
		seq: lastSeq + 1,
		timestamp: new Date().toISOString(),
	});
	const line = Buffer.from(recordLine(record));
	const cut = Math.max(1, Math.min(line.length - 1, Math.floor(line.length * config.keep)));
	appendFileSync(store.pathsOf(config.session).log, line.subarray(0, cut));
	say("torn", cut, line.length);
	await sleep(3_600_000);
}

main().catch((error) => {
	sayError(error);
	process.exitCode = 1;
});
