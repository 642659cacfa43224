import { createFileStore } from "@agent/session-fs";
import { payloadRecord } from "../support/payload.js";
import { configOf, say, sayError, sleep } from "./protocol.js";

export interface LeaseHolderConfig {
	home: string;
	session: string;
	tag: string;
	staleLeaseMs: number;
	/** How long to hold the lease with a responsive event loop; -1 = until killed. */
	holdMs: number;
	/** Instead, block the event loop this long (a process that looks dead: a long synchronous task, a debugger, SIGSTOP). */
	stallMs?: number;
	/** Instead, append through the lease in a loop this long (a bulk import): awaited appends that never wait for I/O. */
	busyMs?: number;
	/** Append one record through the lease before letting it go. */
	appendAfter: boolean;
}

/** Takes a session's lease, says `held <pid>`, holds it (or stalls), maybe appends through it, and lets it go. */
async function main(): Promise<void> {
	const config = configOf<LeaseHolderConfig>();
	const store = createFileStore({ home: config.home, staleLeaseMs: config.staleLeaseMs, waitMs: 60_000 });
	const lease = await store.lease(config.session);
	say("held", process.pid);
	if (config.busyMs) {
		const until = Date.now() + config.busyMs;
		let n = 1;
		try {
			while (Date.now() < until) {
				await lease.append([payloadRecord(config.tag, n++)]);
			}
		} catch (error) {
			sayError(error);
		}
		say("busy-over", n - 1);
	} else if (config.stallMs) {
		const until = Date.now() + config.stallMs;
		while (Date.now() < until) {
			// a blocked event loop: no timer runs, so the lease is not refreshed
		}
		say("stall-over");
	} else if (config.holdMs < 0) {
		await sleep(3_600_000);
	} else {
		await sleep(config.holdMs);
	}
	if (config.appendAfter) {
		try {
			const result = await lease.append([payloadRecord(config.tag, 0)]);
			say("ack", 0, result.records[0]?.seq ?? -1, 0);
		} catch (error) {
			sayError(error);
		}
	}
	await lease.release();
	say("done");
}

main().catch((error) => {
	sayError(error);
	process.exitCode = 1;
});
