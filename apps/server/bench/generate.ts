import type { AgentSessions } from "@agent/session";
import type { RecordInput } from "@agent/session-format";

/** A small deterministic generator (mulberry32), so every run writes the same sessions. */
function random(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

const WORDS =
	"the session store keeps every record of a conversation on disk so that a reply can be resumed compacted forked or branched later while the page shows what the model saw and what it answered".split(
		" ",
	);

function words(next: () => number, count: number): string {
	let out = "";
	for (let i = 0; i < count; i++) out += `${i ? " " : ""}${WORDS[Math.floor(next() * WORDS.length)]}`;
	return out;
}

/** An assistant reply in Markdown: paragraphs, a list, sometimes a code block or a table. */
function reply(next: () => number, n: number): string {
	const parts = [`**Step ${n}.** ${words(next, 20 + Math.floor(next() * 60))}.`];
	parts.push(`- ${words(next, 6)}\n- ${words(next, 8)}\n- \`${words(next, 2).replace(" ", "_")}\``);
	if (next() < 0.4)
		parts.push(
			`\`\`\`ts\nconst value${n} = await store.read("${n}");\nif (value${n}.length > ${n}) {\n\treturn value${n}.slice(0, ${n});\n}\n\`\`\``,
		);
	if (next() < 0.15) parts.push(`| key | value |\n|:-|-:|\n| seq | ${n} |\n| words | ${Math.floor(next() * 100)} |`);
	parts.push(words(next, 10 + Math.floor(next() * 40)));
	return parts.join("\n\n");
}

/**
 * Writes a linear conversation of `messages` message records into a new session through the store:
 * user prompts, Markdown replies with usage and cost, and every tenth turn a tool call and its result.
 */
export async function writeConversation(runtime: AgentSessions, name: string, messages: number, seed: number) {
	const next = random(seed);
	const metadata = await runtime.create({ name, model: "demo" });
	let batch: RecordInput[] = [];
	let written = 0;
	let compactedAt = 0;
	const flush = async () => {
		if (batch.length === 0) return;
		const result = await runtime.store.append(metadata.id, batch);
		batch = [];
		const lastSeq = result.metadata.lastSeq;
		// Long sessions get compacted: one every 5,000 messages and one just before the last turn,
		// as the runtime would, so a turn resumes from the latest compaction as in real use.
		if (written - compactedAt >= 5000 || written >= messages - 2) {
			compactedAt = written;
			await runtime.store.append(metadata.id, [
				{
					recordType: "compaction",
					summary: `## Goal\n${words(next, 20)}\n\n## Progress\n- ${words(next, 12)}\n- ${words(next, 12)}`,
					firstKeptSeq: lastSeq - 20,
					tokensBefore: 150_000,
					readFiles: ["src/store.ts"],
					modifiedFiles: ["src/page.ts"],
					trigger: "threshold",
				},
			]);
		}
	};
	for (let turn = 0; written < messages - 2; turn++) {
		batch.push({
			recordType: "message",
			role: "user",
			content: [{ type: "text", text: `${words(next, 8 + Math.floor(next() * 30))}?` }],
		});
		written++;
		if (turn % 10 === 9 && written + 2 < messages - 2) {
			const id = `call_${turn}`;
			batch.push({
				recordType: "message",
				role: "assistant",
				provider: "demo",
				model: "demo",
				stopReason: "toolUse",
				content: [{ type: "toolCall", id, name: "read", arguments: { path: `src/file-${turn}.ts` } }],
			});
			batch.push({
				recordType: "message",
				role: "toolResult",
				toolCallId: id,
				toolName: "read",
				isError: false,
				content: [{ type: "text", text: words(next, 80) }],
			});
			written += 2;
		}
		if (written >= messages - 2) break;
		const input = 800 + Math.floor(next() * 4000);
		const output = 100 + Math.floor(next() * 600);
		batch.push({
			recordType: "message",
			role: "assistant",
			provider: "demo",
			model: "demo",
			stopReason: "stop",
			usage: {
				input,
				output,
				cacheRead: 0,
				cacheWrite: 0,
				totalTokens: input + output,
				cost: {
					input: input * 3e-6,
					output: output * 15e-6,
					cacheRead: 0,
					cacheWrite: 0,
					total: input * 3e-6 + output * 15e-6,
				},
			},
			content: [{ type: "text", text: reply(next, turn) }],
		});
		written++;
		if (batch.length >= 500) await flush();
	}
	await flush();
	await runtime.store.append(metadata.id, [
		{ recordType: "message", role: "user", content: [{ type: "text", text: "And what is next?" }] },
		{
			recordType: "message",
			role: "assistant",
			provider: "demo",
			model: "demo",
			content: [{ type: "text", text: reply(next, -1) }],
		},
	]);
	return runtime.metadata(metadata.id);
}

/** `count` small sessions (a question and its answer each), for the list. */
export async function writeSmallSessions(runtime: AgentSessions, count: number): Promise<void> {
	const next = random(7);
	for (let i = 0; i < count; i++) {
		const metadata = await runtime.create({
			name: `Session ${String(i + 1).padStart(4, "0")}: ${words(next, 4)}`,
			model: "demo",
		});
		await runtime.store.append(metadata.id, [
			{ recordType: "message", role: "user", content: [{ type: "text", text: `${words(next, 12)}?` }] },
			{
				recordType: "message",
				role: "assistant",
				provider: "demo",
				model: "demo",
				content: [{ type: "text", text: reply(next, i) }],
			},
		]);
	}
}
