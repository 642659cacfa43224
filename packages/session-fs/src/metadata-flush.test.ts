import { readdirSync, readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, describe, expect, it } from "vitest";
import { tempStore } from "./test-home.js";

const { store, cleanup } = tempStore({ metadataFlushMs: 2 });
afterAll(cleanup);
const record = (n: number) => ({ recordType: "custom" as const, customType: "n", data: { n } });
const lastSeqOnDisk = (file: string) => JSON.parse(readFileSync(file, "utf8")).lastSeq as number;

describe("coalesced metadata flushes while a lease is held", () => {
	it("bring metadata.json along in the background while appends go on; release waits for them and leaves it exact, with no temp file", async () => {
		const { id } = await store.create();
		const paths = store.pathsOf(id);
		const lease = await store.lease(id);
		const seen = new Set<number>();
		for (let n = 1; n <= 60; n++) {
			await lease.append([record(n)]);
			if (n % 10 === 0) {
				await sleep(10);
				seen.add(lastSeqOnDisk(paths.metadata));
			}
		}
		await lease.release();
		expect([...seen].some((seq) => seq > 0)).toBe(true);
		expect(JSON.parse(readFileSync(paths.metadata, "utf8"))).toMatchObject({ lastSeq: 60 });
		expect(readdirSync(paths.dir).sort()).toEqual(["metadata.json", "session.jsonl"]);
	});

	it("a metadata change right after appends is not overtaken by a flush still running", async () => {
		const { id } = await store.create();
		const lease = await store.lease(id);
		for (let n = 1; n <= 20; n++) await lease.append([record(n)]);
		await sleep(5);
		await lease.append([record(21)]);
		await lease.release();
		await store.archive(id);
		const onDisk = JSON.parse(readFileSync(store.pathsOf(id).metadata, "utf8"));
		// The archive is a record of its own (seq 22), and the metadata on disk says so.
		expect(onDisk).toMatchObject({ lastSeq: 22, archivedAt: expect.any(String) });
	});
});
