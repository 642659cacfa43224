import { closeSync, openSync, readFileSync, writeSync } from "node:fs";
import { runStoreConformance } from "@agent/store-conformance";
import { tempStore } from "./test-home.js";

/** A handle of a fresh store whose `damage` turns the first byte of a record's line into "#". */
function damageable(options: Parameters<typeof tempStore>[0] = {}) {
	const made = tempStore(options);
	return {
		...made,
		async damage(id: string, seq: number) {
			const log = made.store.pathsOf(id).log;
			const lines = readFileSync(log).toString("utf8").split("\n");
			const index = lines.findIndex((line) => line.length > 0 && (JSON.parse(line) as { seq: number }).seq === seq);
			const offset = Buffer.byteLength(
				lines
					.slice(0, index)
					.map((line) => `${line}\n`)
					.join(""),
			);
			const fd = openSync(log, "r+");
			try {
				writeSync(fd, "#", offset);
			} finally {
				closeSync(fd);
			}
		},
	};
}

runStoreConformance("FileSessionStore", async () => damageable());
runStoreConformance("FileSessionStore (fsync durability, metadata written after every append)", async () =>
	damageable({ durability: "fsync", metadataFlushMs: 0 }),
);
