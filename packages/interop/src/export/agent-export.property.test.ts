import { buildContext, type ContentBlock, type StoredRecord } from "@agent/session-format";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
// The session-format package's own arbitraries (random session trees with branches, roots, tool calls, compactions).
import { sessionTree } from "../../../session-format/src/test-arbitraries.js";
import { convertSession } from "../convert.js";
import { agentView } from "../testing/test-agent-view.js";
import { ourContext } from "../testing/test-context.js";
import type { AgentTarget } from "./agent-carry.js";
import { exportRecords } from "./export-session.js";
import { recordsFrom } from "./record-source.js";

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

/** What each record's content becomes: any text (line breaks, lone surrogates), images, thinking of one provider or another. */
const flavour = fc.record({
	text: fc.string({ unit: "binary", maxLength: 12 }),
	image: fc.constantFrom(undefined, "image/png", "image/tiff"),
	thinking: fc.option(
		fc.record({ text: fc.string({ maxLength: 8 }), signature: fc.string({ maxLength: 6 }), redacted: fc.boolean() }),
		{ nil: undefined },
	),
	provider: fc.constantFrom("anthropic", "openai", "google"),
});

/** Tool call ids as other providers write them (with `|`, `.`, `:`), which an export must rewrite. */
const idStyle = fc.constantFrom(
	(id: string) => id,
	(id: string) => `${id}|fc_${id}.x:1`,
);

const session = fc
	.tuple(sessionTree, fc.array(flavour, { minLength: 1, maxLength: 8 }), idStyle)
	.map(([tree, flavours, style]) =>
		tree.map((record, index) => enrich(record, flavours[index % flavours.length] as Flavour, style)),
	);

type Flavour = {
	text: string;
	image?: string | undefined;
	thinking?: { text: string; signature: string; redacted: boolean } | undefined;
	provider: string;
};

function enrich(record: StoredRecord, f: Flavour, style: (id: string) => string): StoredRecord {
	const image: ContentBlock[] = f.image ? [{ type: "image", data: PNG, mimeType: f.image }] : [];
	if (record.recordType === "custom_message")
		return { ...record, content: [{ type: "text", text: f.text }, ...(image as never[])] };
	if (record.recordType !== "message") return record;
	if (record.role === "user") return { ...record, content: [{ type: "text", text: f.text }, ...image] };
	if (record.role === "toolResult")
		return {
			...record,
			toolCallId: style(record.toolCallId ?? ""),
			content: [{ type: "text", text: f.text }, ...image],
		};
	const thinking: ContentBlock[] = f.thinking
		? [
				{
					type: "thinking",
					thinking: f.thinking.text,
					thinkingSignature: f.thinking.signature,
					...(f.thinking.redacted ? { redacted: true } : {}),
				},
			]
		: [];
	const calls = record.content.flatMap((block) =>
		block.type === "toolCall" ? [{ ...block, id: style(block.id) }] : [],
	);
	const api =
		f.provider === "anthropic"
			? "anthropic-messages"
			: f.provider === "openai"
				? "openai-responses"
				: "google-generative-ai";
	return { ...record, api, provider: f.provider, content: [...thinking, { type: "text", text: f.text }, ...calls] };
}

async function exported(records: StoredRecord[], target: AgentTarget): Promise<string[]> {
	let text = "";
	const info = {
		id: "01JZ3K8V6Q2W9E4R7T5Y1U0I8P",
		createdAt: "2026-08-01T10:00:00.000Z",
		name: "Round trip",
		model: "openai/gpt-5",
	};
	for await (const chunk of exportRecords(recordsFrom(records), info, target)) text += chunk;
	const lines = text.split("\n");
	if (lines.at(-1) === "") lines.pop();
	return lines;
}

describe("any of our sessions survives export to Claude Code or Codex and import back with the same context", () => {
	for (const target of ["claude", "codex"] as const) {
		it(`${target}: the re-imported context is the exported one, as the agent's model reads it`, async () => {
			await fc.assert(
				fc.asyncProperty(session, async (records) => {
					// An empty context is refused (nothing to resume): pinned below.
					fc.pre(buildContext(records).messages.length > 0);
					const lines = await exported(records, target);
					const converted = convertSession(lines, { from: target, sourcePath: `/exports/round-trip.jsonl` });
					expect(agentView(ourContext(converted.records), target)).toEqual(agentView(buildContext(records), target));
				}),
				{ numRuns: 150 },
			);
		});
	}
});

describe("an export for another agent", () => {
	it("refuses a session with no message on its active branch: the agent would have nothing to resume", async () => {
		const records: StoredRecord[] = [
			{
				recordType: "custom",
				schemaVersion: 1,
				seq: 1,
				timestamp: "2026-08-01T10:00:00.000Z",
				customType: "state",
				data: {},
			},
		];
		for (const target of ["claude", "codex"] as const) {
			await expect(exported(records, target)).rejects.toThrow(
				/@agent\/interop: session 01JZ3K8V6Q2W9E4R7T5Y1U0I8P has no message on its active branch/,
			);
		}
	});
});

describe("cases the property found, kept as examples", () => {
	it("codex: two answers in a row kept by a compaction stay two answers (a replacement history would merge them)", async () => {
		const answer = (seq: number): StoredRecord => ({
			recordType: "message",
			schemaVersion: 1,
			seq,
			timestamp: `t${seq}`,
			role: "assistant",
			content: [{ type: "text", text: `a${seq}` }],
			api: "anthropic-messages",
			provider: "anthropic",
		});
		const records: StoredRecord[] = [
			answer(1),
			answer(2),
			{
				recordType: "compaction",
				schemaVersion: 1,
				seq: 3,
				timestamp: "t3",
				firstKeptSeq: 1,
				summary: "s3",
				tokensBefore: 10,
				readFiles: [],
				modifiedFiles: [],
			},
		];
		const converted = convertSession(await exported(records, "codex"), { from: "codex" });
		expect(agentView(ourContext(converted.records), "codex").map((m) => m.role)).toEqual([
			"user",
			"assistant",
			"assistant",
		]);
	});
});
