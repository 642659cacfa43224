import { isAgentSessionError, SessionTree, type StoredRecord } from "@agent/session-format";
import { afterEach, describe, expect, it } from "vitest";
import { fauxModel, lastUserText, openRuntime, tempHome } from "./helpers.js";

const cleanups: Array<() => void> = [];
afterEach(() => {
	for (const cleanup of cleanups.splice(0)) cleanup();
});

async function setUp() {
	const faux = fauxModel();
	cleanups.push(() => faux.faux.unregister());
	const runtime = await openRuntime(await tempHome(), { resolveModel: faux.resolveModel });
	const { id } = await runtime.create({ model: "faux/faux-small" });
	const records = async () => {
		const out: StoredRecord[] = [];
		for await (const record of runtime.store.read(id)) out.push(record);
		return out;
	};
	const replyTo = async (text: string) =>
		(await records()).find(
			(r) => r.recordType === "message" && r.role === "assistant" && JSON.stringify(r.content).includes(text),
		) as StoredRecord;
	return { runtime, id, records, replyTo, requests: faux.requests };
}

describe("a turn continues from the parentSeq it is given (the branch on screen)", () => {
	it("continues another branch: the model gets that branch's context, and the message becomes the active leaf", async () => {
		const { runtime, id, records, replyTo, requests } = await setUp();
		await runtime.send(id, "first");
		await runtime.send(id, "second");
		const first = await replyTo("first");
		await runtime.send(id, "from the first reply", { parentSeq: first.seq });

		const context = requests.at(-1)?.messages.map((m) => JSON.stringify(m.content)) ?? [];
		expect(context.some((text) => text.includes("second"))).toBe(false);
		expect(context.some((text) => text.includes("first"))).toBe(true);
		expect(lastUserText(requests.at(-1) ?? { messages: [] })).toBe("from the first reply");
		const log = await records();
		const sent = log.find(
			(r) => r.recordType === "message" && JSON.stringify(r.content).includes("from the first reply"),
		) as StoredRecord;
		expect(sent.parentSeq).toBe(first.seq);
		const tree = new SessionTree(log);
		const leaf = tree.activeLeaf((await runtime.metadata(id)).leafSeq);
		expect(tree.path(leaf ?? 0).map((r) => r.seq)).toContain(sent.seq);
		expect(tree.path(leaf ?? 0).map((r) => r.seq)).toContain(first.seq);
	});

	it("writes the same log as a plain send when parentSeq is the active leaf already", async () => {
		const { runtime, id, records, replyTo } = await setUp();
		await runtime.send(id, "only");
		await runtime.send(id, "next", { parentSeq: (await replyTo("only")).seq });
		const plain = await runtime.create({ model: "faux/faux-small" });
		await runtime.send(plain.id, "only");
		await runtime.send(plain.id, "next");
		const shape = (log: StoredRecord[]) => log.map((r) => ({ seq: r.seq, type: r.recordType, parentSeq: r.parentSeq }));
		const plainLog: StoredRecord[] = [];
		for await (const record of runtime.store.read(plain.id)) plainLog.push(record);
		expect(shape(await records())).toEqual(shape(plainLog));
	});

	it("refuses a parentSeq that is not a message of a branch, naming the field", async () => {
		const { runtime, id, records } = await setUp();
		await runtime.send(id, "only");
		const turnRecord = (await records()).find((r) => r.recordType === "turn") as StoredRecord;
		const lastSeq = (await runtime.metadata(id)).lastSeq;
		await expect(runtime.send(id, "x", { parentSeq: turnRecord.seq })).rejects.toSatisfy(
			(error: unknown) =>
				isAgentSessionError(error, "INVALID_ARGUMENT") && /turn record, which belongs to no branch/.test(String(error)),
		);
		await expect(runtime.send(id, "x", { parentSeq: lastSeq + 50 })).rejects.toSatisfy(
			(error: unknown) => isAgentSessionError(error, "INVALID_ARGUMENT") && /no readable record/.test(String(error)),
		);
		expect(() => runtime.enqueue(id, "x", { parentSeq: 0 })).toThrow(/parentSeq must be the seq/);
	});
});
