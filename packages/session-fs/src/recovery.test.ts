import { appendFileSync, copyFileSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import type { RecordProblem, StoredRecord, VerifyProblemKind } from "@agent/session-format";
import { describe, expect, it } from "vitest";
import { sha256, userMessage, useTempStores } from "./test-home.js";

const setup = useTempStores();
const user = userMessage;
const sha = sha256;

async function readAll(store: ReturnType<typeof setup>["store"], id: string, strict = false) {
	const records: StoredRecord[] = [];
	const problems: RecordProblem[] = [];
	for await (const record of store.read(id, { strict, onProblem: (p) => problems.push(p) })) records.push(record);
	return { records, problems };
}

async function sessionOf(texts: string[], options: Parameters<typeof setup>[0] = {}) {
	const handle = setup(options);
	const { id } = await handle.store.create();
	for (const text of texts) await handle.store.append(id, [user(text)]);
	return { ...handle, id, paths: handle.store.pathsOf(id) };
}

describe("crash recovery", () => {
	it("S7.9: a torn last line (a crash mid-append) is ignored on reload, reported with its line and byte offset, never thrown", async () => {
		const { store, id, paths } = await sessionOf(["a", "b"]);
		const size = statSync(paths.log).size;
		appendFileSync(paths.log, '{"recordType":"message","schemaVersion":1,"seq":3,"timestamp":"2025');
		for (const strict of [false, true]) {
			const { records, problems } = await readAll(store, id, strict);
			expect(records.map((r) => r.seq)).toEqual([1, 2]);
			expect(problems).toEqual([expect.objectContaining({ code: "TORN_TAIL", line: 3, byteOffset: size })]);
		}
		expect((await store.open(id)).context.messages).toHaveLength(2);
		expect((await store.tail(id, 5)).map((r) => r.seq)).toEqual([1, 2]);
		expect((await store.metadata(id)).lastSeq).toBe(2);
	});

	it("the next append cuts a torn tail off (keeping its bytes aside) and never glues onto it; acknowledged bytes stay as they were", async () => {
		const { store, id, paths } = await sessionOf(["a", "b"]);
		const acknowledged = readFileSync(paths.log);
		appendFileSync(paths.log, '{"recordType":"mess');
		const { records } = await store.append(id, [user("c")]);
		expect(records[0]?.seq).toBe(3);
		const now = readFileSync(paths.log);
		expect(sha(now.subarray(0, acknowledged.length))).toBe(sha(acknowledged));
		expect(now.subarray(acknowledged.length).toString()).toMatch(
			/^\{"recordType":"message","schemaVersion":1,"seq":3,.*\n$/,
		);
		expect(readFileSync(paths.tornTails, "utf8")).toContain('{"recordType":"mess');
		const { records: all, problems } = await readAll(store, id);
		expect(all.map((r) => r.seq)).toEqual([1, 2, 3]);
		expect(problems).toEqual([]);
	});

	it("a last line that is a whole record without its LF is read, and the next append terminates it rather than cut it", async () => {
		const { store, id, paths } = await sessionOf(["a"]);
		const line = JSON.stringify({
			recordType: "message",
			schemaVersion: 1,
			seq: 2,
			timestamp: "2025-01-01T00:00:00Z",
			role: "user",
			content: [{ type: "text", text: "landed" }],
		});
		appendFileSync(paths.log, line);
		expect((await readAll(store, id)).records.map((r) => r.seq)).toEqual([1, 2]);
		expect((await store.tail(id, 1))[0]?.seq).toBe(2);
		expect((await store.metadata(id)).lastSeq).toBe(2);
		const { records } = await store.append(id, [user("next")]);
		expect(records[0]?.seq).toBe(3);
		const lines = readFileSync(paths.log, "utf8").split("\n");
		expect(lines[1]).toBe(line);
		expect(lines).toHaveLength(4);
	});

	it("a corrupt line in the middle goes to the reporter (line, byte offset, reason) and is skipped; strict mode throws CORRUPT_RECORD", async () => {
		const { store, id, paths } = await sessionOf(["a"]);
		const offset = statSync(paths.log).size;
		appendFileSync(paths.log, "this is not json\n");
		await store.append(id, [user("c")]);
		const { records, problems } = await readAll(store, id);
		expect(records.map((r) => r.seq)).toEqual([1, 2]);
		expect(problems).toEqual([
			expect.objectContaining({
				code: "INVALID_JSON",
				line: 2,
				byteOffset: offset,
				reason: expect.stringContaining("JSON"),
			}),
		]);
		await expect(readAll(store, id, true)).rejects.toMatchObject({
			code: "CORRUPT_RECORD",
			line: 2,
			byteOffset: offset,
		});
		const backwards: RecordProblem[] = [];
		await store.tail(id, 3, { onProblem: (p) => backwards.push(p) });
		expect(backwards).toEqual([expect.objectContaining({ code: "INVALID_JSON", byteOffset: offset })]);
		const opened: RecordProblem[] = [];
		expect((await store.open(id, { onProblem: (p) => opened.push(p) })).context.messages).toHaveLength(2);
		expect(opened.map((p) => p.byteOffset)).toEqual([offset]);
	});

	it("a crash between an append and its metadata write is detected by the log's size and caught up", async () => {
		const { store, id, paths } = await sessionOf(["a"], { metadataFlushMs: 0 });
		const stale = `${paths.metadata}.before`;
		copyFileSync(paths.metadata, stale);
		await store.append(id, [user("b"), user("c")]);
		copyFileSync(stale, paths.metadata);
		rmSync(stale);
		const metadata = await store.metadata(id);
		expect(metadata).toMatchObject({ lastSeq: 3, messageCount: 3, logBytes: statSync(paths.log).size });
		expect((await store.open(id)).context.messages).toHaveLength(3);
		const { records } = await store.append(id, [user("d")]);
		expect(records[0]?.seq).toBe(4);
		expect(JSON.parse(readFileSync(paths.metadata, "utf8"))).toMatchObject({ lastSeq: 4 });
	});

	it("a damaged metadata.json is rebuilt from the log, the moved leaf with it (a leaf_change record)", async () => {
		const { store, id, paths } = await sessionOf(["a", "b", "c"]);
		await store.branch(id, 2);
		const metadata = JSON.parse(readFileSync(paths.metadata, "utf8"));
		writeFileSync(paths.metadata, JSON.stringify({ ...metadata, logBytes: 999_999, messageCount: 42 }));
		const rebuilt = await store.metadata(id);
		expect(rebuilt).toMatchObject({ lastSeq: 4, messageCount: 3, leafSeq: 2, createdAt: metadata.createdAt });
		writeFileSync(paths.metadata, "{ not json");
		const fromLog = await store.metadata(id);
		expect(fromLog).toMatchObject({ id, lastSeq: 4, messageCount: 3, leafSeq: 2, createdAt: metadata.createdAt });
		expect((await store.verify(id))[0]?.problems.map((p) => p.kind)).toEqual(["metadata_drift"]);
		const before = sha(readFileSync(paths.log));
		const report = await store.repair(id);
		expect(report.repaired).toBe(true);
		expect(sha(readFileSync(paths.log))).toBe(before);
		expect((await store.verify(id))[0]?.ok).toBe(true);
	});

	it("a directory holding only session.jsonl is a valid session: listed, opened, its metadata rebuilt", async () => {
		const { store, id, paths } = await sessionOf(["a", "b"]);
		rmSync(paths.metadata);
		const listed = (await store.list()).sessions;
		expect(listed.map((s) => s.id)).toEqual([id]);
		expect(listed[0]).toMatchObject({ lastSeq: 2, messageCount: 2 });
		expect(JSON.parse(readFileSync(paths.metadata, "utf8"))).toMatchObject({ id, lastSeq: 2 });
		expect((await store.open(id)).context.messages).toHaveLength(2);
	});

	it("verify reports every kind of problem with where it is; repair fixes the metadata, acknowledges damaged lines and only appends", async () => {
		const { store, id, paths } = await sessionOf(["a", "b"]);
		const line = (fields: Record<string, unknown>) =>
			`${JSON.stringify({ schemaVersion: 1, timestamp: "2025-01-01T00:00:00Z", ...fields })}\n`;
		const msg = { recordType: "message", role: "user", content: [{ type: "text", text: "x" }] };
		appendFileSync(
			paths.log,
			[
				"garbage\n",
				line({ ...msg, seq: 5 }),
				line({ ...msg, seq: 5 }),
				line({ ...msg, seq: 6, parentSeq: 4 }),
				line({
					recordType: "compaction",
					seq: 7,
					parentSeq: 1,
					firstKeptSeq: 5,
					summary: "s",
					tokensBefore: 1,
					readFiles: [],
					modifiedFiles: [],
				}),
				line({ recordType: "future_thing", schemaVersion: 9, seq: 8 }),
				'{"recordType":"mes',
			].join(""),
		);
		const before = readFileSync(paths.log);
		const [report] = await store.verify(id);
		const kinds = (report?.problems ?? []).map((p) => p.kind);
		const expected: VerifyProblemKind[] = [
			"corrupt_line",
			"seq_gap",
			"seq_duplicate",
			"dangling_parent",
			"compaction_off_path",
			"opaque_record",
			"torn_tail",
			"metadata_drift",
		];
		for (const kind of expected) expect(kinds).toContain(kind);
		expect(report?.ok).toBe(false);
		const corrupt = report?.problems.find((p) => p.kind === "corrupt_line");
		expect(corrupt).toMatchObject({ line: 3, byteOffset: expect.any(Number) });
		rmSync(paths.metadata);
		expect((await store.verify(id))[0]?.problems.map((p) => p.kind)).toContain("metadata_missing");
		const torn = '{"recordType":"mes';
		const repaired = await store.repair(id);
		expect(repaired.repaired).toBe(true);
		expect(repaired.acknowledged).toBe(1);
		// The log was only appended to, after the torn tail (never acknowledged) was cut off by the writer.
		const log = readFileSync(paths.log, "utf8");
		const kept = readFileSync(paths.log).subarray(0, before.length - torn.length);
		expect(log.startsWith(kept.toString("utf8"))).toBe(true);
		expect(log.slice(kept.length)).toMatch(/^\{"recordType":"damage_ack",[^\n]*"line":3,[^\n]*\n$/);
		const after = (await store.verify(id))[0];
		const afterKinds = after?.problems.map((p) => p.kind) ?? [];
		expect(afterKinds).not.toContain("metadata_drift");
		expect(afterKinds).not.toContain("metadata_missing");
		expect(afterKinds).not.toContain("torn_tail");
		// The damaged line, the gap it left and the parent it took are acknowledged; the rest still fails.
		const acknowledged = new Set(after?.problems.filter((p) => p.acknowledged).map((p) => p.kind));
		expect([...acknowledged]).toEqual(["corrupt_line", "seq_gap", "dangling_parent"]);
		expect(after?.ok).toBe(false);
	});

	it("fork carries records it does not understand verbatim, renumbered", async () => {
		const { store, id, paths } = await sessionOf(["a"]);
		appendFileSync(
			paths.log,
			`${JSON.stringify({ recordType: "from_the_future", schemaVersion: 7, seq: 2, timestamp: "2030-01-01T00:00:00Z", payload: { keep: true } })}\n`,
		);
		await store.append(id, [user("c")]);
		const fork = await store.fork(id);
		const lines = readFileSync(store.pathsOf(fork.id).log, "utf8")
			.trimEnd()
			.split("\n")
			.map((l) => JSON.parse(l));
		expect(lines.map((l) => l.seq)).toEqual([1, 2, 3]);
		expect(lines[1]).toEqual({
			recordType: "from_the_future",
			schemaVersion: 7,
			seq: 2,
			timestamp: "2030-01-01T00:00:00Z",
			payload: { keep: true },
		});
	});

	it("lines longer than a read chunk read whole, forwards and backwards", async () => {
		const { store, id } = await sessionOf(["x".repeat(50_000), "short", "y".repeat(70_000)], {
			forwardChunkBytes: 4096,
			backwardChunkBytes: 1000,
		});
		const { records } = await readAll(store, id);
		expect(records.map((r) => (r as { content: Array<{ text: string }> }).content[0]?.text.length)).toEqual([
			50_000, 5, 70_000,
		]);
		expect((await store.tail(id, 3)).map((r) => r.seq)).toEqual([1, 2, 3]);
		expect((await store.open(id)).context.messages).toHaveLength(3);
	});
});
