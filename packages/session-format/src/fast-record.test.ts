import fc from "fast-check";
import { describe, expect, expectTypeOf, it } from "vitest";
import type * as z from "zod";
import { imageBlockSchema, textBlockSchema, thinkingBlockSchema, toolCallBlockSchema } from "./content.js";
import { fastRecord } from "./fast-record.js";
import { parseRecordLine } from "./parse.js";
import { type KnownRecordType, RECORD_TYPES } from "./record-kinds.js";
import {
	compactionRecordSchema,
	customRecordSchema,
	messageRecordSchema,
	modelChangeRecordSchema,
	pathSettingsSchema,
	type RecordType,
	sessionHeaderSchema,
	sessionInfoRecordSchema,
	sessionRecordSchema,
	thinkingLevelChangeRecordSchema,
	turnRecordSchema,
	usageSchema,
} from "./records.js";
import * as keys from "./schema-keys.js";
import { anyRecord, jsonValue, recordOf } from "./test-arbitraries.js";

const HOT_TYPES: RecordType[] = [
	"message",
	"compaction",
	"model_change",
	"thinking_level_change",
	"session_info",
	"custom",
	"turn",
];

/**
 * Same value and the same key order (what a writer would put on disk). `fromJson`: the input is
 * JSON.parse output (no holes, no extra properties on arrays), so reuse is checked too.
 */
function expectSameAsZod(input: unknown, fromJson = false): void {
	const zod = sessionRecordSchema.safeParse(input);
	for (const reuse of fromJson ? [false, true] : [false]) {
		const fast = fastRecord(input, { reuse });
		if (fast === undefined) continue;
		expect(zod.success).toBe(true);
		expect(fast).toEqual(zod.data);
		expect(JSON.stringify(fast)).toBe(JSON.stringify(zod.data));
	}
}

type Container = Record<string, unknown> | unknown[];

/** Every object and array inside `value` (itself included). */
function containers(value: unknown, out: Container[] = []): Container[] {
	if (typeof value !== "object" || value === null) return out;
	out.push(value as Container);
	for (const child of Object.values(value)) containers(child, out);
	return out;
}

const odd = fc.constantFrom<unknown>(
	undefined,
	Number.NaN,
	Number.POSITIVE_INFINITY,
	-1,
	0,
	1.5,
	2 ** 60,
	"",
	null,
	[],
	{},
);

/** A valid record with one thing broken somewhere: a value replaced, a key removed, or a key added. */
const damagedRecord = fc
	.record({
		record: anyRecord,
		where: fc.nat(),
		which: fc.nat(),
		how: fc.constantFrom("replace", "delete", "add"),
		value: fc.oneof(odd, jsonValue),
		key: fc.constantFrom(
			"extra",
			"type",
			"text",
			"content",
			"seq",
			"usage",
			"cost",
			"input",
			"arguments",
			"__proto__",
			"session",
			"model",
			"error",
		),
	})
	.map(({ record, where, which, how, value, key }) => {
		const copy = structuredClone(record) as unknown;
		const all = containers(copy);
		const target = all[where % all.length] as Record<string, unknown>;
		const keys = Object.keys(target);
		const name = how === "add" || keys.length === 0 ? key : (keys[which % keys.length] as string);
		if (how === "delete") delete target[name];
		else Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true });
		return copy;
	});

/** The keys of an object schema (a lazy one unwrapped, an optional one too), in its order. */
function keysOf(schema: z.ZodType): string[] {
	let inner = schema as z.ZodType & { unwrap?: () => z.ZodType; shape?: Record<string, unknown> };
	while (!inner.shape && inner.unwrap) inner = inner.unwrap() as typeof inner;
	return Object.keys(inner.shape ?? {});
}

describe("the hand check's key lists are the schemas' (schema-keys.ts is never written from memory)", () => {
	it.each([
		["MESSAGE_KEYS", keys.MESSAGE_KEYS, messageRecordSchema],
		["COMPACTION_KEYS", keys.COMPACTION_KEYS, compactionRecordSchema],
		["MODEL_CHANGE_KEYS", keys.MODEL_CHANGE_KEYS, modelChangeRecordSchema],
		["THINKING_LEVEL_KEYS", keys.THINKING_LEVEL_KEYS, thinkingLevelChangeRecordSchema],
		["SESSION_INFO_KEYS", keys.SESSION_INFO_KEYS, sessionInfoRecordSchema],
		["CUSTOM_KEYS", keys.CUSTOM_KEYS, customRecordSchema],
		["TURN_KEYS", keys.TURN_KEYS, turnRecordSchema],
		["TURN_ERROR_KEYS", keys.TURN_ERROR_KEYS, turnRecordSchema.unwrap().shape.error],
		["PATH_SETTINGS_KEYS", keys.PATH_SETTINGS_KEYS, pathSettingsSchema],
		["PATH_MODEL_KEYS", keys.PATH_MODEL_KEYS, pathSettingsSchema.unwrap().shape.model],
		["HEADER_KEYS", keys.HEADER_KEYS, sessionHeaderSchema],
		["IMPORTED_FROM_KEYS", keys.IMPORTED_FROM_KEYS, sessionHeaderSchema.unwrap().shape.importedFrom],
		["FORKED_FROM_KEYS", keys.FORKED_FROM_KEYS, sessionHeaderSchema.unwrap().shape.forkedFrom],
		["USAGE_KEYS", keys.USAGE_KEYS, usageSchema],
		["COST_KEYS", keys.COST_KEYS, usageSchema.unwrap().shape.cost],
		["TEXT_KEYS", keys.TEXT_KEYS, textBlockSchema],
		["THINKING_KEYS", keys.THINKING_KEYS, thinkingBlockSchema],
		["TOOL_CALL_KEYS", keys.TOOL_CALL_KEYS, toolCallBlockSchema],
		["IMAGE_KEYS", keys.IMAGE_KEYS, imageBlockSchema],
	] as const)("%s", (_name, list, schema) => {
		expect(keysOf(schema as z.ZodType).length).toBeGreaterThan(1);
		expect(list).toEqual(keysOf(schema as z.ZodType));
	});

	it("RECORD_TYPES (record-kinds.ts, read without zod) are the schemas' record types", () => {
		expectTypeOf<KnownRecordType>().toEqualTypeOf<RecordType>();
		const union = sessionRecordSchema.unwrap() as unknown as { options: z.ZodType[] };
		const types = union.options.map((option) => {
			const recordType = (option as unknown as { unwrap(): { shape: { recordType: { value: string } } } }).unwrap()
				.shape.recordType;
			return recordType.value;
		});
		expect([...RECORD_TYPES].sort()).toEqual(types.sort());
	});
});

describe("fastRecord", () => {
	it("gives zod's output, key order included, for every valid record", () => {
		fc.assert(
			fc.property(anyRecord, (record) => {
				expectSameAsZod(record);
				expectSameAsZod(JSON.parse(JSON.stringify(record)), true);
			}),
			{ numRuns: 2000 },
		);
	});

	it("takes every valid record of the hot types, first line's header included (a read never builds zod's schemas for them)", () => {
		for (const type of HOT_TYPES) {
			fc.assert(
				fc.property(recordOf(type), (record) => {
					expect(fastRecord(record)).toBeDefined();
					expect(fastRecord(JSON.parse(JSON.stringify(record)), { reuse: true })).toBeDefined();
				}),
				{ numRuns: 300 },
			);
		}
	});

	it("declines or agrees with zod on damaged records", () => {
		fc.assert(
			fc.property(damagedRecord, (record) => expectSameAsZod(record)),
			{ numRuns: 5000 },
		);
	});

	it("declines or agrees with zod on damaged records read back from JSON", () => {
		fc.assert(
			fc.property(damagedRecord, (record) => {
				const text = JSON.stringify(record);
				if (text !== undefined) expectSameAsZod(JSON.parse(text), true);
			}),
			{ numRuns: 2000 },
		);
	});

	it("with fill, gives zod's output for the record with those fields replaced (how an append fills them in)", () => {
		const fill = { schemaVersion: 1, seq: 7, timestamp: "2025-02-11T10:00:00Z" };
		const check = (input: unknown) => {
			const fast = fastRecord(input, { fill });
			if (fast === undefined) return;
			const zod = sessionRecordSchema.safeParse({ ...(input as object), ...fill });
			expect(zod.success).toBe(true);
			expect(JSON.stringify(fast)).toBe(JSON.stringify(zod.data));
			expect(fast).toEqual(zod.data);
		};
		fc.assert(
			fc.property(anyRecord, damagedRecord, (record, damaged) => {
				const { schemaVersion: _v, seq: _s, timestamp: _t, ...input } = record;
				check(input);
				check(record);
				check(damaged);
			}),
			{ numRuns: 2000 },
		);
	});

	it("keeps a __proto__ key in tool arguments as data, as the schema does", () => {
		const line =
			'{"recordType":"message","schemaVersion":1,"seq":1,"timestamp":"t","role":"assistant","content":[{"type":"toolCall","id":"c","name":"read","arguments":{"__proto__":{"x":1},"path":"a"}}]}';
		const argumentsOf = (record: unknown) => {
			const block = (record as { content: Array<{ arguments: Record<string, unknown> }> }).content[0];
			return block?.arguments as Record<string, unknown>;
		};
		const fast = argumentsOf(fastRecord(JSON.parse(line)));
		const parsed = parseRecordLine(line);
		const schema = argumentsOf(parsed.ok ? parsed.record : undefined);
		for (const args of [fast, schema]) {
			expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
			expect(Object.keys(args)).toEqual(["__proto__", "path"]);
			expect(Object.getOwnPropertyDescriptor(args, "__proto__")?.value).toEqual({ x: 1 });
			expect(JSON.stringify(args)).toBe('{"__proto__":{"x":1},"path":"a"}');
		}
	});

	it("with reuse, keeps a record already in the schema's shape as it is (a resume allocates no copies)", () => {
		fc.assert(
			fc.property(anyRecord, (record) => {
				const line = JSON.parse(JSON.stringify(sessionRecordSchema.parse(record)));
				const fast = fastRecord(line, { reuse: true });
				if (fast) expect(fast).toBe(line);
			}),
			{ numRuns: 500 },
		);
	});

	it("copies what the schema copies, so a caller changing its input later changes nothing", () => {
		const input = {
			recordType: "message",
			schemaVersion: 1,
			seq: 1,
			timestamp: "2025-02-11T10:00:00Z",
			role: "assistant",
			content: [{ type: "toolCall", id: "c", name: "read", arguments: { path: "a" } }],
			usage: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0, totalTokens: 3 },
		};
		const record = fastRecord(input);
		expect(record).toEqual(input);
		input.content[0]!.arguments.path = "b";
		input.content.push({ type: "toolCall", id: "d", name: "read", arguments: { path: "c" } });
		input.usage.input = 99;
		expect(record).toMatchObject({ content: [{ arguments: { path: "a" } }], usage: { input: 1 } });
		expect(record && "content" in record && record.content).toHaveLength(1);
	});
});
