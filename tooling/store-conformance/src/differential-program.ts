import type { CreateSessionOptions, ListOptions, RecordInput, SearchOptions } from "@agent/session-format";
import fc from "fast-check";

/**
 * Random programs of store operations with hostile strings, for the differential test: the same
 * program runs on two stores, which must answer every step alike.
 */

/** One step of a program. `session` picks among the sessions created so far (by creation order). */
export type Op =
	| { op: "create"; options: CreateSessionOptions }
	| { op: "append"; session: number; records: RecordInput[] }
	| { op: "branch"; session: number; seq: number }
	| { op: "label"; session: number; seq: number; label: string }
	| { op: "rename"; session: number; name: string }
	| { op: "fork"; session: number; atSeq?: number; name?: string }
	| { op: "archive"; session: number }
	| { op: "unarchive"; session: number }
	| { op: "uptime"; session: number; seconds: number }
	| { op: "delete"; session: number }
	| { op: "findByIdentity"; identityKey: string }
	| { op: "list"; options: ListOptions }
	| { op: "search"; query: string; options: SearchOptions };

/**
 * Pieces hostile text is made of: an emoji (a surrogate pair) and each of its halves alone, U+0000,
 * bidi controls, line and paragraph separators, CJK, LIKE's wildcards and escape, JSON's quote and
 * backslash, whitespace, letters whose case folds oddly (İ, ß, the Kelvin sign), and two common
 * words for search to find (or, never adjacent, not find).
 */
const PIECES = [
	"a",
	"B",
	"alpha",
	"bravo",
	" alpha bravo ",
	"é",
	"😀",
	"\u202e",
	"\u200f",
	"\u2028",
	"日本語",
	"%",
	"_",
	"\\",
	'"',
	" ",
	"\n",
	"\t",
	"İ",
	"ß",
	"\u212a",
	"k",
];

/** What no name may hold (U+0000) and no text at all (each half of an emoji alone). */
const INVALID_PIECES = ["\ud83d", "\ude00", "\u0000"];

/** Short hostile text: now and then a piece no store keeps (in a name, or anywhere). */
export const hostileText: fc.Arbitrary<string> = fc
	.array(
		fc.oneof(
			{ weight: 24, arbitrary: fc.constantFrom(...PIECES) },
			{ weight: 1, arbitrary: fc.constantFrom(...INVALID_PIECES) },
		),
		{ maxLength: 6 },
	)
	.map((pieces) => pieces.join(""));

/**
 * Text that puts an emoji across a cut boundary: the name is cut at 60 characters, the first
 * message's preview at 119, a snippet 60 around a match; CJK near the 1,024-character limits.
 */
export const boundaryText: fc.Arbitrary<string> = fc.oneof(
	fc
		.tuple(fc.constantFrom(57, 58, 59, 60, 61, 117, 118, 119, 120, 121), fc.constantFrom("😀", "日"))
		.map(([n, char]) => `${"a".repeat(n)}${char}bbb alpha`),
	fc.integer({ min: 1022, max: 1026 }).map((n) => "日".repeat(n)),
	fc.integer({ min: 510, max: 514 }).map((n) => "😀".repeat(n)),
);

/** Text for a field: mostly short hostile text, sometimes boundary text, sometimes plain. */
export const fieldText: fc.Arbitrary<string> = fc.oneof(
	{ weight: 6, arbitrary: hostileText },
	{ weight: 1, arbitrary: boundaryText },
	{ weight: 3, arbitrary: fc.constantFrom("plain", "k1", "k%", "k_", "/srv/app", "", "alpha", "日本") },
);

const smallSeq = fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 0, max: 4 }) }, fc.integer({ min: 5, max: 12 }));
const session = fc.nat({ max: 7 });

/** Message text: field text, or sentences holding what searches look for (in one block or split across two). */
const messageText = fc.oneof(
	{ weight: 3, arbitrary: fieldText },
	{
		weight: 2,
		arbitrary: fc.constantFrom(
			"the alpha bravo here",
			"alpha, then later bravo",
			"ALPHA\nBRAVO",
			"日本語 text with 😀 inside",
			"50% of a_b is c\\d",
			"İstanbul is big, the \u212aelvin is cold, straße",
			"é and E\u0301",
		),
	},
);

const textBlocks = fc.array(
	messageText.map((text) => ({ type: "text" as const, text })),
	{ minLength: 1, maxLength: 2 },
);

const recordInput: fc.Arbitrary<RecordInput> = fc.oneof(
	{
		weight: 4,
		arbitrary: textBlocks.map((content): RecordInput => ({ recordType: "message", role: "user", content })),
	},
	{
		weight: 3,
		arbitrary: fc
			.record({
				content: textBlocks,
				call: fc.option(fc.record({ id: fieldText, name: fieldText, value: fieldText }), { nil: undefined }),
				provider: fc.constantFrom("faux", "faux", "faux", "faux", "p%", "p\u0000", "\ud800p"),
				model: fieldText,
			})
			.map(
				({ content, call, provider, model }): RecordInput => ({
					recordType: "message",
					role: "assistant",
					content: call
						? [...content, { type: "toolCall", id: call.id, name: call.name, arguments: { arg: call.value } }]
						: content,
					provider,
					model,
					usage: { input: 3, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 8 },
				}),
			),
	},
	{
		weight: 1,
		arbitrary: fc.record({ id: fieldText, name: fieldText, content: textBlocks, isError: fc.boolean() }).map(
			({ id, name, content, isError }): RecordInput => ({
				recordType: "message",
				role: "toolResult",
				toolCallId: id,
				toolName: name,
				isError,
				content,
			}),
		),
	},
	{ weight: 1, arbitrary: fieldText.map((name): RecordInput => ({ recordType: "session_info", name })) },
	{
		weight: 1,
		arbitrary: fc
			.tuple(smallSeq, fieldText)
			.map(([targetSeq, label]): RecordInput => ({ recordType: "label", targetSeq: targetSeq + 1, label })),
	},
	{
		weight: 1,
		arbitrary: fc.tuple(smallSeq, fieldText).map(
			([firstKeptSeq, summary]): RecordInput => ({
				recordType: "compaction",
				firstKeptSeq: firstKeptSeq + 1,
				summary,
				tokensBefore: 10,
				readFiles: [],
				modifiedFiles: [],
			}),
		),
	},
	{
		weight: 1,
		arbitrary: fc
			.tuple(fieldText, fieldText)
			.map(([provider, modelId]): RecordInput => ({ recordType: "model_change", provider, modelId })),
	},
	{
		weight: 1,
		arbitrary: fieldText.map((customType): RecordInput => ({ recordType: "custom", customType, data: { customType } })),
	},
	{
		weight: 1,
		arbitrary: fc
			.option(smallSeq, { nil: null })
			.map((seq): RecordInput => ({ recordType: "leaf_change", parentSeq: seq === null ? null : seq + 1 })),
	},
);

const createFields = fc.record({
	name: fieldText,
	model: fc.constantFrom("faux/faux-1", "demo", "p\u0000/m", "a/😀"),
	source: fc.constantFrom("interactive" as const, "cron" as const),
	cronJobId: fieldText,
	systemPromptOverride: fieldText,
	identityKey: fieldText,
	cwd: fieldText,
	createdBy: fc.oneof(fieldText, fc.constantFrom("ana", "bo")),
	uptimeSeconds: fc.constantFrom(0, 1.5, 60),
	deferred: fc.constantFrom(false, false, false, true),
	importedFrom: fc.record({ format: fc.constantFrom("pi", "codex", "p\u0000"), sourceId: fieldText }),
	// Only times no store takes: a valid one could tie two sessions' places in the listing, which
	// each store breaks by its own (random) ids.
	createdAt: fc.constantFrom("yesterday", "2025-13-01T00:00:00Z"),
});

const CREATE_KEYS = [
	"name",
	"model",
	"source",
	"cronJobId",
	"systemPromptOverride",
	"identityKey",
	"cwd",
	"createdBy",
	"uptimeSeconds",
	"deferred",
	"importedFrom",
	"createdAt",
] as const;

/** At most three facts of a session at a time, so that most creates succeed. */
const createOptions: fc.Arbitrary<CreateSessionOptions> = fc
	.tuple(fc.shuffledSubarray([...CREATE_KEYS], { maxLength: 3 }), createFields)
	.map(([keys, all]) => Object.fromEntries(keys.map((key) => [key, all[key]])) as CreateSessionOptions);

const archived = fc.constantFrom(undefined, undefined, false, true, "only" as const);

/**
 * A name search that cannot match a session id: a listing's search also looks in ids, which each
 * store makes at random (ULID letters and digits), so text made only of those would find
 * different sessions in each.
 */
function notAnId(search: string): string {
	return /^[0-9a-hjkmnp-tv-z]+$/i.test(search) ? `${search} ` : search;
}

/** A filter given now and then (most listings and searches filter on nothing or one thing). */
function sometimes<T>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> {
	return fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary });
}

const op: fc.Arbitrary<Op> = fc.oneof(
	{ weight: 4, arbitrary: createOptions.map((options): Op => ({ op: "create", options })) },
	{
		weight: 6,
		arbitrary: fc
			.tuple(session, fc.array(recordInput, { minLength: 1, maxLength: 3 }))
			.map(([index, records]): Op => ({ op: "append", session: index, records })),
	},
	{
		weight: 1,
		arbitrary: fc.tuple(session, smallSeq).map(([index, seq]): Op => ({ op: "branch", session: index, seq })),
	},
	{
		weight: 1,
		arbitrary: fc
			.tuple(session, smallSeq, fieldText)
			.map(([index, seq, label]): Op => ({ op: "label", session: index, seq, label })),
	},
	{
		weight: 1,
		arbitrary: fc.tuple(session, fieldText).map(([index, name]): Op => ({ op: "rename", session: index, name })),
	},
	{
		weight: 1,
		arbitrary: fc
			.record({
				index: session,
				atSeq: fc.option(smallSeq, { nil: undefined }),
				name: fc.option(fieldText, { nil: undefined }),
			})
			.map(
				({ index, atSeq, name }): Op => ({
					op: "fork",
					session: index,
					...(atSeq !== undefined ? { atSeq } : {}),
					...(name !== undefined ? { name } : {}),
				}),
			),
	},
	{ weight: 1, arbitrary: session.map((index): Op => ({ op: "archive", session: index })) },
	{ weight: 1, arbitrary: session.map((index): Op => ({ op: "unarchive", session: index })) },
	{
		weight: 1,
		arbitrary: fc
			.tuple(session, fc.constantFrom(0, 2.5, -1, Number.NaN))
			.map(([index, seconds]): Op => ({ op: "uptime", session: index, seconds })),
	},
	{ weight: 1, arbitrary: session.map((index): Op => ({ op: "delete", session: index })) },
	{ weight: 2, arbitrary: fieldText.map((identityKey): Op => ({ op: "findByIdentity", identityKey })) },
	{
		weight: 3,
		arbitrary: fc
			.record({
				archived,
				search: sometimes(
					fc.oneof(fieldText, fc.constantFrom("a ", "first", "İ", "kelvin", "😀", "%", "_")).map(notAnId),
				),
				identityKey: sometimes(fc.oneof(fieldText, fc.constant("k1"))),
				cwd: sometimes(fc.oneof(fieldText, fc.constant("/srv/app"))),
				createdBy: sometimes(fc.oneof(fieldText, fc.constantFrom("ana", "bo"))),
				source: sometimes(fc.constantFrom("interactive" as const, "cron" as const)),
				limit: sometimes(fc.constantFrom(1, 2, 50)),
			})
			.map((options): Op => ({ op: "list", options: withoutUndefined(options) })),
	},
	{
		weight: 3,
		arbitrary: fc
			.record({
				query: fc.oneof(
					{ weight: 1, arbitrary: fieldText },
					{
						weight: 3,
						arbitrary: fc.constantFrom(
							"alpha bravo",
							"alpha",
							"ALPHA",
							"bravo",
							"日本",
							"😀",
							"a_b",
							"%",
							"a",
							"é",
							"K",
							"i",
							"ss",
							"\\",
						),
					},
				),
				options: fc.record({
					archived,
					cwd: sometimes(fc.oneof(fieldText, fc.constant("/srv/app"))),
					createdBy: sometimes(fc.oneof(fieldText, fc.constantFrom("ana", "bo"))),
					limit: sometimes(fc.constantFrom(1, 3, 100)),
				}),
			})
			.map(({ query, options }): Op => ({ op: "search", query, options: withoutUndefined(options) })),
	},
);

function withoutUndefined<T extends object>(value: T): T {
	return Object.fromEntries(Object.entries(value).filter(([, inner]) => inner !== undefined)) as T;
}

/** A program: a session to work on, then a handful of steps, most of them on the few sessions it creates. */
export const program: fc.Arbitrary<Op[]> = fc
	.tuple(
		fc.constantFrom<CreateSessionOptions>(
			{},
			{ name: "first" },
			{ cwd: "/srv/app", identityKey: "k1" },
			{ createdBy: "ana" },
		),
		fc.array(op, { minLength: 1, maxLength: 24 }),
	)
	.map(([options, steps]) => [{ op: "create", options }, ...steps]);
