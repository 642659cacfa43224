import { describe, expect, it } from "vitest";
import { prepareBatch } from "./batch.js";
import { DeferredSessions } from "./deferred-sessions.js";
import { newMetadata } from "./metadata-derive.js";
import type { RecordInput } from "./records.js";

const ID = "01M85ZVHG0GPBCA32F9HP12G9Q";
const NOW = "2026-11-24T06:00:00.000Z";
const user: RecordInput = { recordType: "message", role: "user", content: [{ type: "text", text: "héllo" }] };
const reply: RecordInput = {
	recordType: "message",
	role: "assistant",
	content: [{ type: "text", text: "hi" }],
	provider: "demo",
	model: "demo",
	api: "demo",
	usage: {
		input: 1,
		output: 1,
		cacheRead: 0,
		cacheWrite: 0,
		totalTokens: 2,
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
	},
	stopReason: "stop",
};

describe("DeferredSessions", () => {
	it("holds batches in seq order until the first reply, counting the bytes their lines will take", () => {
		const deferred = new DeferredSessions();
		deferred.add(newMetadata(ID, { deferred: true }, new Date(NOW)));
		const first = deferred.hold(ID, (metadata) => prepareBatch(metadata, [user], NOW));
		expect(first.firstReply).toBe(false);
		expect(first.records.map((record) => record.seq)).toEqual([1]);
		const second = deferred.hold(ID, (metadata) => prepareBatch(metadata, [reply], NOW));
		expect(second.firstReply).toBe(true);
		expect(second.records.map((record) => record.seq)).toEqual([2]);
		const held = deferred.take(ID);
		expect(held?.records.map((record) => record.seq)).toEqual([1, 2]);
		const bytes = held?.lines.reduce((sum, line) => sum + new TextEncoder().encode(`${line}\n`).length, 0);
		expect(second.metadata.logBytes).toBe(bytes);
		expect(deferred.has(ID)).toBe(false);
	});

	it("gives a taken session back when its write failed, with everything it held", () => {
		const deferred = new DeferredSessions();
		deferred.add(newMetadata(ID, { deferred: true }, new Date(NOW)));
		deferred.hold(ID, (metadata) => prepareBatch(metadata, [user], NOW));
		const held = deferred.take(ID);
		if (!held) throw new Error("held session missing");
		deferred.restore(held);
		expect(deferred.get(ID)?.records).toHaveLength(1);
		expect(deferred.hold(ID, (metadata) => prepareBatch(metadata, [reply], NOW)).records[0]?.seq).toBe(2);
	});

	it("refuses a batch for a session it does not hold", () => {
		expect(() => new DeferredSessions().hold(ID, (metadata) => prepareBatch(metadata, [user], NOW))).toThrow(
			/is not deferred/,
		);
	});
});
