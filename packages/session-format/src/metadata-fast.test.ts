import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sessionMetadataSchema, sessionMetricsSchema, tokenTotalsSchema } from "./metadata.js";
import { applyRecord, newMetadata } from "./metadata-derive.js";
import { fastMetadata } from "./metadata-fast.js";
import type { SessionRecord } from "./records.js";
import { FORKED_FROM_KEYS, IMPORTED_FROM_KEYS, METADATA_KEYS, METRICS_KEYS, TOTALS_KEYS } from "./schema-keys.js";

/** When the fast path answers, it is the schema's answer: same value, same key order. */
function expectSameAsSchema(input: unknown): void {
	const fast = fastMetadata(input);
	// Reusing the caller's object (as a reader does with fresh JSON.parse output) gives the same answer.
	const reused = fastMetadata(structuredClone(input), { reuse: true });
	expect(JSON.stringify(reused)).toBe(JSON.stringify(fast));
	if (fast === undefined) return;
	const schema = sessionMetadataSchema.safeParse(input);
	expect(schema.success).toBe(true);
	expect(fast).toEqual(schema.data);
	expect(JSON.stringify(fast)).toBe(JSON.stringify(schema.data));
}

const text = fc.string({ unit: "binary", maxLength: 12 });
const finite = fc.double({ noNaN: true, noDefaultInfinity: true }).map((x) => (x === 0 ? 0 : x));
const count = fc.nat({ max: 1_000_000 });
const totals = fc.record(
	{
		input: finite,
		output: finite,
		cacheRead: finite,
		cacheWrite: finite,
		totalTokens: finite,
		cost: finite,
		turns: count,
	},
	{ noNullPrototype: true },
);

/** Metadata with every field the schema knows, optional ones present or not, keys in a random order. */
const metadata = fc
	.tuple(
		fc.record(
			{
				id: text,
				name: text,
				createdAt: text,
				lastMessageAt: text,
				model: text,
				messageCount: count,
				source: fc.constantFrom("interactive", "cron"),
				cronJobId: text,
				systemPromptOverride: text,
				metrics: fc
					.tuple(
						totals,
						fc.dictionary(
							text.filter((k) => k !== "__proto__"),
							totals,
							{ maxKeys: 3, noNullPrototype: true },
						),
					)
					.map(([t, byModel]) => ({ ...t, byModel })),
				metadataVersion: fc.constant(1),
				lastSeq: count,
				logBytes: count,
				leafSeq: fc.integer({ min: 1, max: 1000 }),
				archivedAt: text,
				forkedFrom: fc.record({ sessionId: text, seq: count }, { noNullPrototype: true }),
				identityKey: text,
				uptimeSeconds: fc.double({ min: 0, max: 1e6, noNaN: true }),
				thinkingLevel: text,
				compactionCount: count,
				importedFrom: fc.record({ format: text, sourceId: text }, { noNullPrototype: true }),
				cwd: text,
			},
			{
				noNullPrototype: true,
				requiredKeys: ["id", "createdAt", "lastMessageAt", "model", "messageCount", "source", "metadataVersion"],
			},
		),
		fc.nat(),
	)
	.map(([value, seed]) => {
		// Rotated, and reversed half the time: files written by other code need not follow the schema's order.
		const keys = Object.keys(value);
		const turn = seed % keys.length;
		const order = [...keys.slice(turn), ...keys.slice(0, turn)];
		if (seed % 2 === 1) order.reverse();
		const out: Record<string, unknown> = {};
		for (const key of order) out[key] = (value as Record<string, unknown>)[key];
		return out;
	});

const odd = fc.constantFrom<unknown>(undefined, Number.NaN, -1, 1.5, 2 ** 60, "", null, [], {}, "cron");

/** Valid metadata with one thing broken somewhere: a value replaced, a key removed, or a key added. */
const damaged = fc
	.record({
		value: metadata,
		where: fc.nat(),
		which: fc.nat(),
		how: fc.constantFrom("replace", "delete", "add"),
		replacement: fc.oneof(odd, text, count),
		key: fc.constantFrom("extra", "id", "metrics", "byModel", "turns", "seq", "__proto__"),
	})
	.map(({ value, where, which, how, replacement, key }) => {
		const copy = structuredClone(value) as Record<string, unknown>;
		const objects: Record<string, unknown>[] = [];
		const walk = (v: unknown) => {
			if (typeof v !== "object" || v === null) return;
			objects.push(v as Record<string, unknown>);
			for (const child of Object.values(v)) walk(child);
		};
		walk(copy);
		const target = objects[where % objects.length] as Record<string, unknown>;
		const keys = Object.keys(target);
		const name = how === "add" || keys.length === 0 ? key : (keys[which % keys.length] as string);
		if (how === "delete") delete target[name];
		else
			Object.defineProperty(target, name, { value: replacement, enumerable: true, writable: true, configurable: true });
		return copy;
	});

describe("fastMetadata", () => {
	it("knows the schema's keys, in its order (the snapshot's header names them too)", () => {
		const shape = sessionMetadataSchema.unwrap().shape;
		expect(METADATA_KEYS).toEqual(Object.keys(shape));
		expect(TOTALS_KEYS).toEqual(Object.keys(tokenTotalsSchema.unwrap().shape));
		expect(METRICS_KEYS).toEqual(Object.keys(sessionMetricsSchema.unwrap().shape));
		expect(FORKED_FROM_KEYS).toEqual(Object.keys(shape.forkedFrom.unwrap().shape));
		expect(IMPORTED_FROM_KEYS).toEqual(Object.keys(shape.importedFrom.unwrap().shape));
	});

	it("gives the schema's output, key order included, for any valid metadata", () => {
		fc.assert(
			fc.property(metadata, (value) => {
				expectSameAsSchema(value);
				expectSameAsSchema(JSON.parse(JSON.stringify(value)));
			}),
			{ numRuns: 1000 },
		);
	});

	it("declines or agrees with the schema on damaged metadata", () => {
		fc.assert(
			fc.property(damaged, (value) => {
				expectSameAsSchema(value);
				const json = JSON.stringify(value);
				if (json !== undefined) expectSameAsSchema(JSON.parse(json));
			}),
			{ numRuns: 3000 },
		);
	});

	it("takes every metadata.json this store writes", () => {
		const metadata = newMetadata("01JKZ0000000000000000000AB", { name: "n", identityKey: "k" }, new Date(0));
		const record: SessionRecord = {
			recordType: "message",
			schemaVersion: 1,
			seq: 1,
			timestamp: "2025-02-11T10:00:00Z",
			role: "assistant",
			content: [{ type: "text", text: "hi" }],
			provider: "p",
			model: "m",
			usage: {
				input: 1,
				output: 2,
				cacheRead: 0,
				cacheWrite: 0,
				totalTokens: 3,
				cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0.5 },
			},
		};
		applyRecord(metadata, record);
		const written = JSON.parse(JSON.stringify(metadata, null, "\t"));
		expect(fastMetadata(written)).toEqual(sessionMetadataSchema.parse(written));
	});
});
