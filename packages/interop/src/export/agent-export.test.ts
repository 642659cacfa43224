import { buildContext, type StoredRecord } from "@agent/session-format";
import { describe, expect, it } from "vitest";
import { convertSession } from "../convert.js";
import { type RealFixture, shapeFixtures } from "../testing/real-fixtures.js";
import { agentView } from "../testing/test-agent-view.js";
import { ourContext, storedRecords } from "../testing/test-context.js";
import type { AgentTarget } from "./agent-carry.js";
import { exportRecords } from "./export-session.js";
import { piSessionIdOf } from "./pi-export.js";
import { recordsFrom } from "./record-source.js";
import { claudeSessionPath, codexRolloutPath, resumeHint } from "./resume-paths.js";

const ID = "01JZ3K8V6Q2W9E4R7T5Y1U0I8P";
/** The session id every export of ID writes (derived from it). */
const SESSION_UUID = piSessionIdOf(ID);

function fixture(format: "claude" | "codex", part: string): RealFixture {
	const found = shapeFixtures(format).find((f) => f.name.includes(part));
	if (!found) throw new Error(`no fixture ${part}`);
	return found;
}

/** A real-shape file imported, then exported for `target`: the lines, parsed, and the records they came from. */
async function exportOf(f: RealFixture, target: AgentTarget) {
	const converted = convertSession(f.lines, { sourcePath: f.path });
	const records: StoredRecord[] = storedRecords(converted.records);
	const info = {
		id: ID,
		createdAt: converted.createdAt ?? "2026-01-01T00:00:00.000Z",
		name: converted.name ?? "Retry helper",
		model: converted.model,
		cwd: converted.cwd,
	};
	let text = "";
	for await (const chunk of exportRecords(recordsFrom(records), info, target)) text += chunk;
	const lines = text.split("\n").filter((line) => line !== "");
	return { lines, values: lines.map((line) => JSON.parse(line) as Record<string, unknown>), records };
}

describe("export --format claude: a file claude --resume opens", () => {
	it("one chain of compact JSON lines with Claude Code's envelope, ids Anthropic accepts, one message id per answer", async () => {
		const { lines, values } = await exportOf(fixture("codex", "codex-0.141.0/"), "claude");
		for (const line of lines) expect(line).not.toMatch(/^\{"[^"]+": /);
		const chain = values.filter((v) => typeof v.uuid === "string");
		chain.forEach((value, index) => {
			expect(value).toMatchObject({
				sessionId: SESSION_UUID,
				cwd: "/home/dev/lib",
				version: "2.1.39",
				isSidechain: false,
				userType: "external",
			});
			if (value.subtype !== "compact_boundary")
				expect(value.parentUuid).toBe(index === 0 ? null : chain[index - 1]?.uuid);
		});
		const boundary = values.find((v) => v.subtype === "compact_boundary");
		expect(boundary).toMatchObject({
			type: "system",
			parentUuid: null,
			compactMetadata: { trigger: "auto", preTokens: expect.any(Number) },
		});
		const toolIds = JSON.stringify(values).match(/"(id|tool_use_id)":"[^"]*"/g) ?? [];
		for (const id of toolIds) expect(id).toMatch(/:"[A-Za-z0-9_-]{1,64}"$/);
		const messageIds = values.flatMap((v) => (v.type === "assistant" ? [(v.message as { id: string }).id] : []));
		expect(new Set(messageIds).size).toBe(messageIds.length);
		expect(values[0]).toEqual({ type: "custom-title", customTitle: expect.any(String), sessionId: SESSION_UUID });
	});

	it("timestamps rise along the chain, also for records that share one (claude --resume starts from the newest line)", async () => {
		const records = storedRecords([
			{ recordType: "message", role: "user", content: [{ type: "text", text: "list the files" }] },
			{
				recordType: "message",
				role: "assistant",
				content: [{ type: "toolCall", id: "call_1", name: "Bash", arguments: { command: "ls" } }],
			},
			{ recordType: "message", role: "toolResult", toolCallId: "call_1", content: [{ type: "text", text: "a.txt" }] },
			{ recordType: "message", role: "assistant", content: [{ type: "text", text: "One file: a.txt." }] },
		]);
		let text = "";
		for await (const chunk of exportRecords(
			recordsFrom(records),
			{ id: ID, createdAt: "2026-01-01T00:00:00.000Z" },
			"claude",
		))
			text += chunk;
		const times = text
			.split("\n")
			.filter((line) => line.includes('"uuid"'))
			.map((line) => Date.parse((JSON.parse(line) as { timestamp: string }).timestamp));
		expect(new Set(records.map((record) => record.timestamp)).size).toBe(1);
		expect(times).toEqual([0, 1, 2, 3].map((ms) => Date.parse("2026-01-01T00:00:00.000Z") + ms));
	});

	it("another agent's session (Codex, with a compaction and tool calls) imports back to the same context", async () => {
		const { lines, records } = await exportOf(fixture("codex", "codex-0.141.0/"), "claude");
		const back = convertSession(lines, { sourcePath: `/x/${SESSION_UUID}.jsonl` });
		expect(back).toMatchObject({ format: "claude", sourceId: SESSION_UUID, cwd: "/home/dev/lib" });
		expect(agentView(ourContext(back.records), "claude")).toEqual(agentView(buildContext(records), "claude"));
	});

	it("goes where Claude Code looks for it: ~/.claude/projects/<cwd as a folder name>/<session id>.jsonl", () => {
		expect(claudeSessionPath("/home/u/.claude", "/home/dev/my_lib.v2", SESSION_UUID)).toBe(
			`/home/u/.claude/projects/-home-dev-my-lib-v2/${SESSION_UUID}.jsonl`,
		);
		expect(
			resumeHint("claude", {
				agentHome: "/home/u/.claude",
				cwd: "/home/dev/lib",
				sessionId: SESSION_UUID,
				createdAt: "2026-08-01T10:00:00Z",
			}),
		).toBe(
			`To resume it in Claude Code, put the file at /home/u/.claude/projects/-home-dev-lib/${SESSION_UUID}.jsonl and run \`claude --resume ${SESSION_UUID}\` in /home/dev/lib.`,
		);
	});
});

describe("export --format codex: a rollout codex resume opens", () => {
	it("session_meta first (source cli, so the resume picker lists it), a user_message event per prompt, a token_count ending each answer", async () => {
		const { values } = await exportOf(
			fixture("claude", "claude-2.1.39/3f2a8c1e-5b7d-4e90-a1c2-0d39e0c2b139.jsonl"),
			"codex",
		);
		expect(values[0]).toMatchObject({
			type: "session_meta",
			payload: {
				id: SESSION_UUID,
				cwd: "/home/dev/shop",
				originator: "agent-sessions",
				cli_version: "0.141.0",
				source: "cli",
				model_provider: "openai",
			},
		});
		for (const value of values) expect(Object.keys(value)).toEqual(["timestamp", "type", "payload"]);
		const events = values.filter((v) => v.type === "event_msg").map((v) => (v.payload as { type: string }).type);
		expect(events.filter((type) => type === "user_message")).toHaveLength(1);
		const answers = values.filter(
			(v) => v.type === "response_item" && (v.payload as { role?: string }).role === "assistant",
		);
		expect(events.filter((type) => type === "token_count").length).toBeGreaterThanOrEqual(answers.length);
		expect(values.find((v) => v.type === "compacted")).toMatchObject({
			payload: { message: expect.stringContaining("the fix is to round once") },
		});
	});

	it("another agent's session (Claude Code 2.1.39, compacted, with its re-read file) imports back to the same context", async () => {
		const { lines, records } = await exportOf(
			fixture("claude", "claude-2.1.39/3f2a8c1e-5b7d-4e90-a1c2-0d39e0c2b139.jsonl"),
			"codex",
		);
		const back = convertSession(lines);
		expect(back).toMatchObject({ format: "codex", sourceId: SESSION_UUID, cwd: "/home/dev/shop" });
		expect(agentView(ourContext(back.records), "codex")).toEqual(agentView(buildContext(records), "codex"));
	});

	it("goes where Codex looks for it: ~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl", () => {
		expect(codexRolloutPath("/home/u/.codex", "2026-08-01T10:02:03.456Z", SESSION_UUID)).toBe(
			`/home/u/.codex/sessions/2026/08/01/rollout-2026-08-01T10-02-03-${SESSION_UUID}.jsonl`,
		);
	});
});
