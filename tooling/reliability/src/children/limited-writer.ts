import { FIELD_LIMITS } from "@agent/session-format";
import { createFileStore, type Durability } from "@agent/session-fs";
import { payloadRecord } from "../support/payload.js";
import { Random } from "../support/random.js";
import { configOf, say, sayError } from "./protocol.js";

export interface LimitedWriterConfig {
	home: string;
	session: string;
	tag: string;
	/** Payload number of the first record. */
	firstN: number;
	/** Stop after this many failed appends (or after maxAppends appends in all). */
	stopAfterErrors: number;
	maxAppends: number;
	batchMax: number;
	padMax: number;
	durability: Durability;
	seed: number;
}

/**
 * A writer on a full disk or under a file-size limit (run it under `ulimit -f`): appends until
 * its appends fail, printing acks and errors, then tries the operations that write only
 * metadata or new files (rename, archive, create) and prints how each ended:
 *   op <name> ok | op <name> error <code> <message as JSON>
 */
async function main(): Promise<void> {
	const config = configOf<LimitedWriterConfig>();
	const random = new Random(config.seed);
	const store = createFileStore({ home: config.home, durability: config.durability, metadataFlushMs: 0 });
	say("ready", process.pid);
	let n = config.firstN;
	let errors = 0;
	for (let i = 0; i < config.maxAppends && errors < config.stopAfterErrors; i++) {
		const size = random.int(1, config.batchMax);
		const batch = Array.from({ length: size }, (_, k) =>
			payloadRecord(config.tag, n + k, random.int(0, config.padMax)),
		);
		n += size;
		try {
			const result = await store.append(config.session, batch);
			for (const [k, record] of result.records.entries()) say("ack", 0, record.seq, n - size + k);
		} catch (error) {
			errors++;
			sayError(error);
		}
	}
	// A name of any allowed length (longer ones are refused as INVALID_ARGUMENT before any write).
	await op("rename", () => store.rename(config.session, "x".repeat(random.int(1, FIELD_LIMITS.title))));
	await op("archive", () => store.archive(config.session));
	await op("create", () => store.create({ name: "on a full disk" }));
	say("done");
}

async function op(name: string, work: () => Promise<unknown>): Promise<void> {
	try {
		await work();
		say("op", name, "ok");
	} catch (error) {
		const code = (error as { code?: unknown })?.code;
		say("op", name, "error", String(code), JSON.stringify(String((error as Error)?.message)));
	}
}

main().catch((error) => {
	sayError(error);
	process.exitCode = 1;
});
