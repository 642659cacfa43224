import { createFileStore } from "@agent/session-fs";
import { payloadRecord } from "../support/payload.js";
import { Random } from "../support/random.js";
import type { WriterConfig } from "../support/writer-config.js";
import { configOf, say, sayError } from "./protocol.js";

/** Appends payload records to one or more sessions and prints an ack for each record once its append resolved. */
async function main(): Promise<void> {
	const config = configOf<WriterConfig>();
	const random = new Random(config.seed);
	const store = createFileStore({
		home: config.home,
		durability: config.durability,
		staleLeaseMs: config.staleLeaseMs,
		waitMs: config.waitMs,
		metadataFlushMs: config.metadataFlushMs,
	});
	const leases = config.viaLease ? await Promise.all(config.sessions.map((id) => store.lease(id))) : undefined;
	say("ready", process.pid);
	let n = config.firstN ?? 0;
	for (let i = 0; config.appends < 0 || i < config.appends; i++) {
		const index = config.sessions.length === 1 ? 0 : i % config.sessions.length;
		const id = config.sessions[index] as string;
		const size = config.batchMax > 1 ? random.int(1, config.batchMax) : 1;
		const big = config.bigEvery > 0 && random.int(1, config.bigEvery) === 1;
		const batch = Array.from({ length: size }, (_, k) =>
			payloadRecord(config.tag, n + k, big ? random.int(config.bigBytes / 2, config.bigBytes) : random.int(0, 200)),
		);
		try {
			const lease = leases?.[index];
			const result = lease ? await lease.append(batch) : await store.append(id, batch);
			for (const [k, record] of result.records.entries()) say("ack", index, record.seq, n + k);
		} catch (error) {
			sayError(error);
			if (!config.continueOnError) break;
		}
		n += size;
	}
	if (leases) for (const lease of leases) await lease.release();
	say("done");
}

main().catch((error) => {
	sayError(error);
	process.exitCode = 1;
});
