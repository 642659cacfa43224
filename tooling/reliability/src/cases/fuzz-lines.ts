import { writeFileSync } from "node:fs";
import { CorruptRecordError, parseSessionLog, type RecordProblem, type StoredRecord } from "@agent/session-format";
import { createFileStore, type FileSessionStore } from "@agent/session-fs";
import fc from "fast-check";
import { checkBigLines } from "../fuzz/big-lines.js";
import { type ExpectedLine, expectedOutcomes } from "../fuzz/expected-outcomes.js";
import { type FuzzLog, fuzzLog, logBytes } from "../fuzz/line-arbitraries.js";
import type { CaseContext, ReliabilityCase } from "../support/case.js";
import { payloadRecord } from "../support/payload.js";
import { makeSandbox } from "../support/sandbox.js";

interface Outcome {
	records: StoredRecord[];
	problems: RecordProblem[];
}

/**
 * Generated logs of valid and mutated lines (truncations, bit flips, wrong types, deep nesting,
 * __proto__ keys, glued records, random bytes, a torn last line), read by the in-memory reader
 * and by every reading path of the store. Each line is returned or reported, exactly as the
 * reader rules say, at its line number and byte offset; nothing throws except strict mode's
 * CorruptRecordError; no prototype is polluted; and the session takes appends afterwards.
 */
async function run(context: CaseContext): Promise<void> {
	const { fuzzLines } = context.profile;
	const sandbox = makeSandbox("fuzz-lines");
	const kinds = new Map<string, number>();
	let lines = 0;
	try {
		const store = createFileStore({ home: sandbox.home });
		let failing: string | undefined;
		const property = fc.asyncProperty(fuzzLog(24), fc.boolean(), async (log, keepStaleCache) => {
			for (const entry of log.lines) kinds.set(entry.kind, (kinds.get(entry.kind) ?? 0) + 1);
			lines += log.lines.length;
			try {
				await checkLog(store, log, keepStaleCache);
			} catch (error) {
				failing = `${(error as Error).message} — in a log of ${describeLog(log)}`;
				throw error;
			}
		});
		const seed = context.random.fork();
		try {
			await fc.assert(property, { numRuns: fuzzLines.runs, seed, endOnFailure: true });
		} catch {
			context.check(false, `${failing ?? "the property failed"} (fast-check seed ${seed})`);
		}
		context.figure("generated logs", fuzzLines.runs);
		context.figure("lines read", lines);
		context.figure(
			"lines by kind",
			[...kinds.entries()]
				.sort((a, b) => b[1] - a[1])
				.map(([kind, count]) => `${kind} ${count}`)
				.join(", "),
		);
		await checkBigLines(context, store);
	} finally {
		sandbox.remove();
	}
}

async function checkLog(store: FileSessionStore, log: FuzzLog, keepStaleCache: boolean): Promise<void> {
	const expected = expectedOutcomes(log);
	const bytes = logBytes(log);
	const memory = inMemory(bytes);
	// A string holds no invalid UTF-8: an in-memory reader's offsets are those of the text it was given.
	const validUtf8 = Buffer.from(bytes.toString("utf8")).equals(bytes);
	compare("parseSessionLog", memory, expected, validUtf8);

	const { id } = await store.create();
	const paths = store.pathsOf(id);
	writeFileSync(paths.log, bytes);
	// Either the cache says the log is empty (a catch-up replays it) or there is none (a rebuild).
	if (!keepStaleCache) writeFileSync(paths.metadata, "{ not json");
	const read = await collect((onProblem) => store.read(id, { onProblem }));
	compare("store.read", read, expected);
	const seqs = memory.records.map((record) => record.seq);
	const tail = await store.tail(id, seqs.length + 3);
	same(
		"store.tail",
		tail.map((record) => record.seq),
		seqs,
	);
	const from = seqs[Math.floor(seqs.length / 2)];
	if (from !== undefined) {
		const rest = await collect((onProblem) => store.readFrom(id, from, { onProblem }));
		if (rest.records.some((record) => record.seq < from)) fail(`readFrom(${from}) returned an earlier seq`);
	}
	await store.open(id);
	await store.metadata(id);
	await store.verify(id);
	const corrupt = expected.some((entry) => entry.outcome === "problem" && entry.code !== "TORN_TAIL");
	await checkStrict(store, id, corrupt);
	checkPrototypes();

	const appended = await store.append(id, [payloadRecord("after", 0)]);
	const after = await collect((onProblem) => store.read(id, { onProblem }));
	const last = after.records.at(-1);
	if (last?.seq !== appended.records[0]?.seq) fail(`the append after the fuzzed lines is not the last record read`);
	if (after.problems.some((problem) => problem.code === "TORN_TAIL")) fail("a torn tail survived an append");
	await store.delete(id);
}

function inMemory(bytes: Buffer): Outcome {
	const problems: RecordProblem[] = [];
	const { records } = parseSessionLog(bytes.toString("utf8"), { onProblem: (problem) => problems.push(problem) });
	return { records, problems };
}

async function collect(
	reader: (onProblem: (problem: RecordProblem) => void) => AsyncIterable<StoredRecord>,
): Promise<Outcome> {
	const problems: RecordProblem[] = [];
	const records: StoredRecord[] = [];
	for await (const record of reader((problem) => problems.push(problem))) records.push(record);
	return { records, problems };
}

/** Every non-blank line is a record or a problem, at its line number and byte offset, as expected. */
function compare(reader: string, outcome: Outcome, expected: ExpectedLine[], checkOffsets = true): void {
	const records = [...outcome.records];
	const problems = outcome.problems.filter((problem) => problem.code !== "OPAQUE_RECORD");
	for (const entry of expected) {
		if (entry.outcome === "blank") continue;
		if (entry.outcome === "record") {
			const record = records.shift();
			if (record?.seq !== entry.seq)
				fail(`${reader}: line ${entry.line} (${entry.kind}) should be seq ${entry.seq}, got ${record?.seq}`);
			if (entry.mustFail) fail(`${reader}: line ${entry.line} (${entry.kind}) came back as a record`);
			continue;
		}
		const problem = problems.shift();
		if (
			!problem ||
			problem.line !== entry.line ||
			(checkOffsets && problem.byteOffset !== entry.byteOffset) ||
			problem.code !== entry.code
		) {
			fail(
				`${reader}: line ${entry.line} (${entry.kind}) should be reported as ${entry.code} at byte ${entry.byteOffset}, got ${JSON.stringify(problem)}`,
			);
		}
	}
	if (records.length > 0 || problems.length > 0) {
		fail(`${reader}: ${records.length} records and ${problems.length} problems more than the lines hold`);
	}
}

async function checkStrict(store: FileSessionStore, id: string, corrupt: boolean): Promise<void> {
	try {
		for await (const _ of store.read(id, { strict: true })) {
			// read to the end
		}
		if (corrupt) fail("a strict read of a log with a corrupt line did not throw");
	} catch (error) {
		if (!(error instanceof CorruptRecordError)) fail(`a strict read threw ${(error as Error)?.stack ?? error}`);
		if (!corrupt) fail("a strict read threw for a log without a corrupt line");
	}
}

function checkPrototypes(): void {
	const probe = {} as Record<string, unknown>;
	if (probe.polluted !== undefined || Object.keys(Object.prototype).length > 0) fail("Object.prototype was polluted");
}

function same(reader: string, actual: number[], expected: number[]): void {
	if (actual.length !== expected.length || actual.some((seq, index) => seq !== expected[index])) {
		fail(`${reader}: seqs ${JSON.stringify(actual.slice(0, 20))}, expected ${JSON.stringify(expected.slice(0, 20))}`);
	}
}

/** The lines of a log, short: kind and the first bytes of each. */
function describeLog(log: FuzzLog): string {
	const lines = log.lines.map(
		(entry, index) => `${index + 1}: ${entry.kind} ${JSON.stringify(entry.bytes.subarray(0, 60).toString("latin1"))}`,
	);
	return `${log.lines.length} lines${log.torn ? " (last one torn)" : ""}: ${lines.join("; ")}`;
}

function fail(message: string): never {
	throw new Error(message);
}

export const fuzzLines: ReliabilityCase = { name: "fuzz-lines", run };
