import type { SessionStore, StoredRecord } from "@agent/session-format";
import type { Op } from "./differential-program.js";

/** A session id no store made: what a step addresses before any session exists. */
const MISSING_ID = "01ARZ3NDEKTSV4RRFFQ69G5FAV";

/** The clock both stores of a run read: one time per step, whatever each store asks it for. */
export interface StepClock {
	now: Date;
}

export const RUN_START = Date.parse("2025-02-11T10:00:00.000Z");

/**
 * What a user of the store sees of each step, and of every session at the end, with each session
 * id replaced by its place in creation order (`S0`, `S1`...): the stores make their own ids. An
 * error is its code (and the field path an InvalidRecordError names): messages differ by package.
 */
export async function observeProgram(store: SessionStore, clock: StepClock, steps: readonly Op[]): Promise<string[]> {
	const ids: string[] = [];
	const seen: string[] = [];
	const pick = (index: number) => (ids.length === 0 ? MISSING_ID : (ids[index % ids.length] as string));
	for (const [step, op] of steps.entries()) {
		clock.now = new Date(RUN_START + (step + 1) * 1000);
		const outcome = await settle(() => runStep(store, op, pick));
		if (op.op === "create" || op.op === "fork") {
			const id = (outcome as { value?: { id?: string } }).value?.id;
			if (id !== undefined) ids.push(id);
		}
		seen.push(`${step} ${op.op}: ${normalize(outcome, ids)}`);
	}
	clock.now = new Date(RUN_START + (steps.length + 1) * 1000);
	for (const [index, id] of ids.entries())
		seen.push(`final S${index}: ${normalize(await settle(() => sessionState(store, id)), ids)}`);
	seen.push(`final list: ${normalize(await settle(() => store.list({ archived: true })), ids)}`);
	return seen;
}

async function runStep(store: SessionStore, op: Op, pick: (index: number) => string): Promise<unknown> {
	switch (op.op) {
		case "create":
			return store.create(op.options);
		case "append":
			return store.append(pick(op.session), op.records);
		case "branch":
			return store.branch(pick(op.session), op.seq);
		case "label":
			return store.label(pick(op.session), op.seq, op.label);
		case "rename":
			return store.rename(pick(op.session), op.name);
		case "fork":
			return store.fork(pick(op.session), {
				...(op.atSeq !== undefined ? { atSeq: op.atSeq } : {}),
				...(op.name !== undefined ? { name: op.name } : {}),
			});
		case "archive":
			return store.archive(pick(op.session));
		case "unarchive":
			return store.unarchive(pick(op.session));
		case "uptime":
			return store.addUptime(pick(op.session), op.seconds);
		case "delete":
			return store.delete(pick(op.session));
		case "findByIdentity":
			return (await store.findByIdentity(op.identityKey)) ?? null;
		case "list": {
			const first = await store.list(op.options);
			const second = first.nextCursor ? await store.list({ ...op.options, cursor: first.nextCursor }) : undefined;
			return { first: first.sessions, more: first.nextCursor !== undefined, second: second?.sessions ?? null };
		}
		case "search":
			return store.search(op.query, op.options);
	}
}

/** Everything a session shows: metadata, records, the resumed path and context, the tail, and verify's report. */
async function sessionState(store: SessionStore, id: string): Promise<unknown> {
	const records: StoredRecord[] = [];
	for await (const record of store.read(id)) records.push(record);
	const opened = await store.open(id);
	const [report] = await store.verify(id);
	return {
		metadata: await store.metadata(id),
		records,
		path: opened.path,
		context: opened.context,
		tail: await store.tail(id, 2),
		verify: report
			? {
					ok: report.ok,
					// The same words from every store (one log checker); where is a file's line, a row's seq.
					problems: report.problems.map(({ line: _line, byteOffset: _byteOffset, ...problem }) => problem),
					records: report.records,
				}
			: null,
	};
}

type Settled = { value: unknown } | { error: string };

async function settle(work: () => Promise<unknown>): Promise<Settled> {
	try {
		return { value: (await work()) ?? null };
	} catch (error) {
		const { code, path } = error as { code?: unknown; path?: unknown };
		if (typeof code !== "string") throw error;
		return { error: typeof path === "string" && path.length > 0 ? `${code} at ${path}` : code };
	}
}

/**
 * JSON of `value` with each session id replaced by its index in `ids`, undefined members dropped,
 * and object keys sorted (metadata comes back from PostgreSQL's jsonb in jsonb's key order; the
 * records, which are the log, keep theirs: each store's serialization is checked by its own suite).
 */
function normalize(value: unknown, ids: readonly string[]): string {
	return JSON.stringify(value, (_key, inner: unknown) => {
		if (inner !== null && typeof inner === "object" && !Array.isArray(inner)) {
			return Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
		}
		if (typeof inner !== "string") return inner;
		let out = inner;
		for (const [index, id] of ids.entries()) if (out.includes(id)) out = out.replaceAll(id, `S${index}`);
		return out;
	});
}
