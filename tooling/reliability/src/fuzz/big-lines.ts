import { appendFileSync, closeSync, openSync, writeSync } from "node:fs";
import { type RecordProblem, recordLine, type StoredRecord, validateRecordInput } from "@agent/session-format";
import type { FileSessionStore } from "@agent/session-fs";
import type { CaseContext } from "../support/case.js";
import { payloadRecord } from "../support/payload.js";

/**
 * Lines too big for the generator: a record holding a huge string (it must come back whole),
 * a line nested a million levels deep, and (full profile) a line longer than a reader decodes,
 * followed by a record that must still be read.
 */
export async function checkBigLines(context: CaseContext, store: FileSessionStore): Promise<void> {
	const { hugeStringBytes, oversizedLineBytes } = context.profile.fuzzLines;
	const { id } = await store.create();
	const log = store.pathsOf(id).log;

	const huge = "h".repeat(hugeStringBytes);
	await store.append(id, [{ recordType: "message", role: "user", content: [{ type: "text", text: huge }] }]);
	const back = (await store.tail(id, 1))[0];
	const text = back?.recordType === "message" && back.content[0]?.type === "text" ? back.content[0].text : "";
	context.check(
		text.length === hugeStringBytes,
		`a ${hugeStringBytes}-byte string came back as ${text.length} characters`,
	);
	context.figure("huge string read back whole (bytes)", hugeStringBytes);

	const depth = 1_000_000;
	appendFileSync(
		log,
		`{"recordType":"custom","schemaVersion":1,"seq":2,"timestamp":"2026-01-01T00:00:00.000Z","customType":"deep","data":${"[".repeat(depth)}${"]".repeat(depth)}}\n`,
	);
	let nextSeq = 2;
	if (oversizedLineBytes > 0) {
		writeOversizedLine(log, oversizedLineBytes);
		context.figure("oversized line (bytes)", oversizedLineBytes);
	}
	const after = validateRecordInput(payloadRecord("after-big", 0), {
		seq: nextSeq,
		timestamp: new Date().toISOString(),
	});
	appendFileSync(log, recordLine(after));
	nextSeq++;

	const problems: RecordProblem[] = [];
	const records: StoredRecord[] = [];
	const rssBefore = process.memoryUsage().rss;
	try {
		for await (const record of store.read(id, { onProblem: (problem) => problems.push(problem) })) records.push(record);
		await store.open(id);
		await store.verify(id);
	} catch (error) {
		context.check(false, `reading big lines threw: ${(error as Error).stack}`);
	}
	const expectedProblems = oversizedLineBytes > 0 ? 2 : 1;
	context.check(
		problems.length === expectedProblems && problems.every((problem) => problem.code !== "TORN_TAIL"),
		`big lines: expected ${expectedProblems} reported lines, got ${JSON.stringify(problems.map((p) => [p.line, p.code, p.reason.slice(0, 80)]))}`,
	);
	context.check(
		records.at(-1)?.seq === 2,
		`big lines: the record after them was not read (got ${records.map((r) => r.seq)})`,
	);
	context.figure("line nested 1,000,000 deep", `reported as ${problems[0]?.code}`);
	context.figure("memory growth reading them (MiB)", Math.round((process.memoryUsage().rss - rssBefore) / 2 ** 20));
	const appended = await store.append(id, [payloadRecord("after-big", 1)]);
	context.check(appended.records[0]?.seq === nextSeq, `big lines: the next append got seq ${appended.records[0]?.seq}`);
	await store.delete(id);
}

/** A record line of `bytes` bytes (a message with one long text), written in chunks. */
function writeOversizedLine(path: string, bytes: number): void {
	const head = Buffer.from(
		`{"recordType":"message","schemaVersion":1,"seq":3,"timestamp":"2026-01-01T00:00:00.000Z","role":"user","content":[{"type":"text","text":"`,
	);
	const tail = Buffer.from(`"}]}\n`);
	const fd = openSync(path, "a");
	try {
		writeSync(fd, head);
		const chunk = Buffer.alloc(16 << 20, 0x6f);
		let left = bytes - head.length - tail.length + 1;
		while (left > 0) left -= writeSync(fd, chunk, 0, Math.min(chunk.length, left));
		writeSync(fd, tail);
	} finally {
		closeSync(fd);
	}
}
