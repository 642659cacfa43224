/**
 * fast-check arbitraries for valid records of every type, and for random session trees.
 * Values are what the parser returns: optional fields are absent (never undefined), defaults
 * are filled, numbers are finite and never -0, object keys never "__proto__".
 */
import fc from "fast-check";
import type { ContentBlock, ImageBlock, TextBlock } from "./content.js";
import type { RecordType, SessionRecord, StoredRecord } from "./records.js";

/** Any string, including line breaks, control characters, U+2028 and astral characters. */
const anyString = fc.string({ unit: "binary", maxLength: 24 });
const nonEmpty = fc.string({ unit: "binary", minLength: 1, maxLength: 12 });
const finite = fc.double({ noNaN: true, noDefaultInfinity: true }).map((x) => (x === 0 ? 0 : x));
const count = fc.nat({ max: 1_000_000 });
const key = anyString.filter((k) => k !== "__proto__");
/** Plain objects only: the parser never yields null-prototype objects. */
const plain = { noNullPrototype: true } as const;

/** JSON values as JSON.parse returns them (no -0, no "__proto__" keys). */
export const jsonValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
	value: fc.oneof(
		{ maxDepth: 3, depthIdentifier: "json" },
		fc.constant(null),
		fc.boolean(),
		finite,
		anyString,
		fc.array(tie("value"), { maxLength: 3, depthIdentifier: "json" }),
		fc.dictionary(key, tie("value"), { maxKeys: 3, noNullPrototype: true, depthIdentifier: "json" }),
	),
})).value;

const textBlock: fc.Arbitrary<TextBlock> = fc.record(
	{ type: fc.constant("text" as const), text: anyString, textSignature: anyString },
	{ noNullPrototype: true, requiredKeys: ["type", "text"] },
);
const imageBlock: fc.Arbitrary<ImageBlock> = fc.record(
	{ type: fc.constant("image" as const), data: anyString, mimeType: nonEmpty },
	plain,
);
const contentBlock: fc.Arbitrary<ContentBlock> = fc.oneof(
	textBlock,
	fc.record(
		{
			type: fc.constant("thinking" as const),
			thinking: anyString,
			thinkingSignature: anyString,
			redacted: fc.boolean(),
		},
		{ noNullPrototype: true, requiredKeys: ["type", "thinking"] },
	),
	fc.record(
		{
			type: fc.constant("toolCall" as const),
			id: nonEmpty,
			name: nonEmpty,
			arguments: fc.dictionary(key, jsonValue, { maxKeys: 3, noNullPrototype: true }),
			thoughtSignature: anyString,
		},
		{ noNullPrototype: true, requiredKeys: ["type", "id", "name", "arguments"] },
	),
	imageBlock,
);

/** seq, schemaVersion, timestamp and (maybe) parentSeq: the tree rule holds (parentSeq < seq). */
const base = fc
	.record({
		seq: fc.integer({ min: 1, max: 1_000_000 }),
		timestamp: nonEmpty,
		parent: fc.option(fc.nat(), { nil: undefined }),
		root: fc.boolean(),
	})
	.map(({ seq, timestamp, parent, root }) => {
		const out: { schemaVersion: number; seq: number; timestamp: string; parentSeq?: number | null } = {
			schemaVersion: 1,
			seq,
			timestamp,
		};
		if (parent !== undefined) out.parentSeq = root || seq === 1 ? null : (parent % (seq - 1)) + 1;
		return out;
	});

const usage = fc.record(
	{
		input: finite,
		output: finite,
		cacheRead: finite,
		cacheWrite: finite,
		totalTokens: finite,
		cost: fc.record({ input: finite, output: finite, cacheRead: finite, cacheWrite: finite, total: finite }, plain),
	},
	{ noNullPrototype: true, requiredKeys: ["input", "output", "cacheRead", "cacheWrite", "totalTokens"] },
);

const files = fc.array(anyString, { maxLength: 3 });

const pathSettings = fc.record(
	{ model: fc.record({ provider: nonEmpty, modelId: nonEmpty }, plain), thinkingLevel: nonEmpty },
	{ noNullPrototype: true, requiredKeys: [] },
);

/** The creation facts a first record carries. */
export const sessionHeader = fc.record(
	{
		createdAt: nonEmpty,
		name: anyString,
		model: anyString,
		source: fc.constantFrom("interactive" as const, "cron" as const),
		cronJobId: anyString,
		systemPromptOverride: anyString,
		identityKey: anyString,
		cwd: anyString,
		importedFrom: fc.record({ format: anyString, sourceId: anyString }, plain),
		forkedFrom: fc.record({ sessionId: anyString, seq: count }, plain),
		uptimeSeconds: fc.double({ min: 0, max: 1e9, noNaN: true }).map((x) => (x === 0 ? 0 : x)),
	},
	{ noNullPrototype: true, requiredKeys: ["createdAt"] },
);

const fieldsByType = {
	message: fc.record(
		{
			role: fc.constantFrom("user" as const, "assistant" as const, "toolResult" as const),
			content: fc.array(contentBlock, { maxLength: 4 }),
			toolCallId: nonEmpty,
			toolName: anyString,
			isError: fc.boolean(),
			details: jsonValue,
			api: anyString,
			provider: anyString,
			model: anyString,
			usage,
			stopReason: fc.constantFrom(
				"stop" as const,
				"length" as const,
				"toolUse" as const,
				"error" as const,
				"aborted" as const,
			),
			errorMessage: anyString,
		},
		{ noNullPrototype: true, requiredKeys: ["role", "content"] },
	),
	compaction: fc.record(
		{
			firstKeptSeq: fc.integer({ min: 1, max: 1_000_000 }),
			summary: anyString,
			tokensBefore: count,
			tokensAfter: count,
			readFiles: files,
			modifiedFiles: files,
			trigger: fc.constantFrom("threshold" as const, "overflow" as const, "manual" as const),
			pathSettings,
		},
		{ noNullPrototype: true, requiredKeys: ["firstKeptSeq", "summary", "tokensBefore", "readFiles", "modifiedFiles"] },
	),
	model_change: fc.record({ provider: nonEmpty, modelId: nonEmpty }, plain),
	thinking_level_change: fc.record({ thinkingLevel: nonEmpty }, plain),
	session_info: fc.record({ name: anyString }, { noNullPrototype: true, requiredKeys: [] }),
	label: fc.record(
		{ targetSeq: fc.integer({ min: 1, max: 1_000_000 }), label: anyString },
		{ noNullPrototype: true, requiredKeys: ["targetSeq"] },
	),
	branch_summary: fc.record(
		{ fromSeq: fc.integer({ min: 1, max: 1_000_000 }), summary: anyString, readFiles: files, modifiedFiles: files },
		{ noNullPrototype: true, requiredKeys: ["fromSeq", "summary"] },
	),
	custom: fc.record({ customType: nonEmpty, data: jsonValue }, { noNullPrototype: true, requiredKeys: ["customType"] }),
	custom_message: fc.record(
		{
			customType: nonEmpty,
			content: fc.array(fc.oneof(textBlock, imageBlock), { maxLength: 3 }),
			display: fc.boolean(),
			details: jsonValue,
		},
		{ noNullPrototype: true, requiredKeys: ["customType", "content", "display"] },
	),
	leaf_change: fc.constant({}),
	archive_change: fc.record({ archived: fc.boolean() }, plain),
	uptime: fc.record({ seconds: fc.double({ min: 0, max: 1e9, noNaN: true }).map((x) => (x === 0 ? 0 : x)) }, plain),
	turn: fc.record(
		{
			turnId: nonEmpty,
			outcome: fc.constantFrom("completed" as const, "failed" as const, "cancelled" as const),
			startedAt: nonEmpty,
			durationMs: fc.double({ min: 0, max: 1e9, noNaN: true }).map((x) => (x === 0 ? 0 : x)),
			model: anyString,
			usage,
			error: fc.record({ code: anyString, message: anyString }, plain),
			firstSeq: fc.integer({ min: 1, max: 1_000_000 }),
			lastSeq: fc.integer({ min: 1, max: 1_000_000 }),
		},
		{ noNullPrototype: true, requiredKeys: ["turnId", "outcome", "startedAt", "durationMs"] },
	),
	damage_ack: fc.record({ line: fc.integer({ min: 1, max: 1_000_000 }), byteOffset: count, reason: anyString }, plain),
} satisfies Record<RecordType, fc.Arbitrary<object>>;

/** A valid record of the given type (now and then with a session header, which any record may carry). */
export function recordOf(type: RecordType): fc.Arbitrary<SessionRecord> {
	const fields = fieldsByType[type] as fc.Arbitrary<object>;
	const header = fc.option(sessionHeader, { nil: undefined, freq: 8 });
	return fc
		.tuple(base, fields, header)
		.map(
			([b, f, session]) =>
				({ recordType: type, ...b, ...(session === undefined ? {} : { session }), ...f }) as SessionRecord,
		);
}

/** A valid record of any type. */
export const anyRecord: fc.Arbitrary<SessionRecord> = fc.oneof(
	...(Object.keys(fieldsByType) as RecordType[]).map((type) => recordOf(type)),
);

const STEP_KINDS = [
	"user",
	"assistant",
	"assistant",
	"toolResult",
	"toolResult",
	"compaction",
	"custom",
	"custom_message",
	"branch_summary",
	"label",
	"model_change",
	"session_info",
	"leaf_change",
	"turn",
] as const;

/** A random session: a tree of records with seq 1..n, random branches, roots, tool calls and compactions. */
export const sessionTree: fc.Arbitrary<StoredRecord[]> = fc
	.array(
		fc.record({
			kind: fc.constantFrom(...STEP_KINDS),
			parent: fc.oneof(
				{ weight: 6, arbitrary: fc.constant("previous" as const) },
				{ weight: 1, arbitrary: fc.constant("root" as const) },
				{ weight: 3, arbitrary: fc.nat() },
			),
			pick: fc.nat(),
			calls: fc.nat({ max: 3 }),
		}),
		{ minLength: 1, maxLength: 40 },
	)
	.map((steps) => {
		const records: StoredRecord[] = [];
		const toolCallIds: string[] = [];
		steps.forEach((step, i) => {
			const seq = i + 1;
			const tree: { parentSeq?: number | null } = {};
			if (step.parent === "root") tree.parentSeq = null;
			else if (typeof step.parent === "number" && seq > 1) tree.parentSeq = (step.parent % (seq - 1)) + 1;
			const head = { schemaVersion: 1, seq, timestamp: `t${seq}`, ...tree };
			switch (step.kind) {
				case "user":
					records.push({ recordType: "message", ...head, role: "user", content: [{ type: "text", text: `u${seq}` }] });
					break;
				case "assistant": {
					const content: ContentBlock[] = [{ type: "text", text: `a${seq}` }];
					for (let c = 0; c < step.calls; c++) {
						const id = `call_${seq}_${c}`;
						toolCallIds.push(id);
						content.push({ type: "toolCall", id, name: "read", arguments: { path: `f${seq}` } });
					}
					records.push({ recordType: "message", ...head, role: "assistant", content });
					break;
				}
				case "toolResult": {
					const known = toolCallIds.length > 0 && step.pick % 5 !== 0;
					const id = known ? (toolCallIds[step.pick % toolCallIds.length] as string) : `unknown_${seq}`;
					records.push({
						recordType: "message",
						...head,
						role: "toolResult",
						content: [{ type: "text", text: `r${seq}` }],
						toolCallId: id,
						isError: false,
					});
					break;
				}
				case "compaction":
					records.push({
						recordType: "compaction",
						...head,
						firstKeptSeq: (step.pick % (seq + 1)) + 1,
						summary: `s${seq}`,
						tokensBefore: 10,
						readFiles: [],
						modifiedFiles: [],
						...(step.pick % 3 === 0
							? { pathSettings: { model: { provider: "p", modelId: `c${step.pick % 2}` }, thinkingLevel: "high" } }
							: step.pick % 3 === 1
								? { pathSettings: {} }
								: {}),
					});
					break;
				case "session_info":
					records.push({ recordType: "session_info", ...head, name: `n${seq}` });
					break;
				case "leaf_change":
					records.push({ recordType: "leaf_change", ...head });
					break;
				case "turn":
					records.push({
						recordType: "turn",
						...head,
						turnId: `t${seq}`,
						outcome: "completed",
						startedAt: `t${seq}`,
						durationMs: 5,
					});
					break;
				case "custom":
					records.push({ recordType: "custom", ...head, customType: "state", data: { secret: `c${seq}` } });
					break;
				case "custom_message":
					records.push({
						recordType: "custom_message",
						...head,
						customType: "note",
						content: [{ type: "text", text: `m${seq}` }],
						display: true,
					});
					break;
				case "branch_summary":
					records.push({ recordType: "branch_summary", ...head, fromSeq: (step.pick % seq) + 1, summary: `b${seq}` });
					break;
				case "label":
					records.push({ recordType: "label", ...head, targetSeq: (step.pick % seq) + 1, label: `l${seq}` });
					break;
				case "model_change":
					records.push({ recordType: "model_change", ...head, provider: "p", modelId: `m${step.pick % 3}` });
					break;
			}
		});
		return records;
	});
