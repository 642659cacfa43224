import { Corpus, type TextKind } from "./corpus.js";
import { Random } from "./random.js";

export type Block =
	| { type: "text"; text: string }
	| { type: "thinking"; thinking: string; thinkingSignature: string }
	| { type: "toolCall"; id: string; name: string; arguments: Record<string, unknown> };

export interface Usage {
	input: number;
	output: number;
	cacheRead: number;
	cacheWrite: number;
	totalTokens: number;
	cost: { input: number; output: number; cacheRead: number; cacheWrite: number; total: number };
}

export type Message =
	| { role: "user"; content: Block[]; time: number }
	| { role: "assistant"; content: Block[]; time: number; usage: Usage; stopReason: "stop" | "toolUse" }
	| { role: "toolResult"; content: Block[]; time: number; toolCallId: string; toolName: string; isError: boolean };

/** One entry of a linear conversation; its parent is the entry before it. Written in both formats alike. */
export type Entry =
	| { kind: "message"; message: Message }
	| { kind: "model_change"; provider: string; modelId: string; time: number }
	| { kind: "thinking_level_change"; thinkingLevel: string; time: number }
	| { kind: "session_info"; name: string; time: number }
	| {
			kind: "compaction";
			/** Index (0-based, in entries written) of the first entry kept. */
			firstKeptIndex: number;
			summary: string;
			tokensBefore: number;
			readFiles: string[];
			modifiedFiles: string[];
			time: number;
	  };

export const PROVIDER = "anthropic";
export const API = "anthropic-messages";
export const MODEL = "claude-sonnet-4-5";

const TOOLS = ["read", "bash", "edit", "write", "grep"] as const;

/**
 * Deterministic, realistic agent conversations: user requests, assistant turns with thinking
 * blocks and tool calls, long tool outputs (log-normal: mostly a few KB, some tens of KB).
 */
export class ConversationGenerator {
	private readonly random: Random;
	private readonly corpus: Corpus;
	private time: number;
	private readonly readFiles = new Set<string>();
	private readonly modifiedFiles = new Set<string>();
	/** chars/4 of everything generated since the start (what a compaction summarizes). */
	private tokens = 0;

	constructor(seed: number, startTime = Date.UTC(2025, 1, 11, 9, 0, 0)) {
		this.random = new Random(seed);
		this.corpus = new Corpus(new Random(seed ^ 0x5bd1e995));
		this.time = startTime;
	}

	/** What a session starts with: model and thinking level (pi writes these first), sometimes a name. */
	opening(name?: string): Entry[] {
		const entries: Entry[] = [
			{ kind: "model_change", provider: PROVIDER, modelId: MODEL, time: this.tick(0) },
			{ kind: "thinking_level_change", thinkingLevel: "medium", time: this.tick(0) },
		];
		if (name !== undefined) entries.push({ kind: "session_info", name, time: this.tick(0) });
		return entries;
	}

	/** One user turn: the request, one to six rounds of thinking + tool calls + results, the answer. */
	turn(): Entry[] {
		const r = this.random;
		const entries: Entry[] = [];
		const request = this.text(r.pick(["prose", "prose", "code"] as const), r.logNormal(300, 0.9, 20, 6000));
		entries.push(this.message({ role: "user", content: [{ type: "text", text: request }], time: this.tick(30) }));
		const rounds = r.int(1, 6);
		for (let round = 0; round < rounds; round++) {
			const content: Block[] = [this.thinking()];
			if (r.chance(0.4)) content.push({ type: "text", text: this.text("prose", r.logNormal(200, 0.8, 20, 2000)) });
			const calls = r.chance(0.2) ? 2 : 1;
			const callBlocks: Extract<Block, { type: "toolCall" }>[] = [];
			for (let i = 0; i < calls; i++) callBlocks.push(this.toolCall());
			content.push(...callBlocks);
			entries.push(this.message(this.assistant(content, "toolUse")));
			for (const call of callBlocks) entries.push(this.message(this.toolResult(call)));
		}
		const answer: Block[] = [
			this.thinking(),
			{ type: "text", text: this.text("prose", r.logNormal(700, 0.8, 40, 8000)) },
		];
		entries.push(this.message(this.assistant(answer, "stop")));
		return entries;
	}

	/** A compaction that keeps entries from `firstKeptIndex` on, with a structured summary as pi and we write them. */
	compaction(firstKeptIndex: number): Entry {
		const sections = [
			"Goal",
			"Constraints & Preferences",
			"Progress",
			"Key Decisions",
			"Next Steps",
			"Critical Context",
		];
		let summary = "";
		for (const section of sections) {
			summary += `## ${section}\n`;
			const items = this.random.int(2, 6);
			for (let i = 0; i < items; i++) summary += `- ${this.corpus.sentence().trim()}\n`;
			summary += "\n";
		}
		const readFiles = [...this.readFiles].filter((file) => !this.modifiedFiles.has(file)).sort();
		const modifiedFiles = [...this.modifiedFiles].sort();
		summary += `<read-files>\n${readFiles.join("\n")}\n</read-files>\n\n<modified-files>\n${modifiedFiles.join("\n")}\n</modified-files>`;
		return {
			kind: "compaction",
			firstKeptIndex,
			summary,
			tokensBefore: this.tokens,
			readFiles,
			modifiedFiles,
			time: this.tick(20),
		};
	}

	private message(message: Message): Entry {
		for (const block of message.content) {
			if (block.type === "text") this.tokens += block.text.length / 4;
			else if (block.type === "thinking") this.tokens += block.thinking.length / 4;
			else this.tokens += 20;
		}
		this.tokens = Math.round(this.tokens);
		return { kind: "message", message };
	}

	private assistant(content: Block[], stopReason: "stop" | "toolUse"): Message {
		const r = this.random;
		const input = r.int(2_000, 150_000);
		const output = r.int(50, 4_000);
		const cacheRead = r.int(0, input);
		const usage: Usage = {
			input: input - cacheRead,
			output,
			cacheRead,
			cacheWrite: r.int(0, 2_000),
			totalTokens: input + output,
			cost: { input: 0.0123, output: 0.0456, cacheRead: 0.0012, cacheWrite: 0.0034, total: 0.0625 },
		};
		return { role: "assistant", content, time: this.tick(8), usage, stopReason };
	}

	private thinking(): Block {
		const r = this.random;
		return {
			type: "thinking",
			thinking: this.text("prose", r.logNormal(900, 0.8, 60, 12_000)),
			thinkingSignature: r.id("", r.int(200, 600)),
		};
	}

	private toolCall(): Extract<Block, { type: "toolCall" }> {
		const r = this.random;
		const name = r.pick(TOOLS);
		const path = this.corpus.file();
		let args: Record<string, unknown>;
		if (name === "read") {
			this.readFiles.add(path);
			args = { path };
		} else if (name === "bash") {
			args = { command: r.pick(["pnpm test", "git status", "ls -la src", "pnpm build", "git log -5"]) };
		} else if (name === "grep") {
			args = { pattern: r.pick(["lease", "readLines", "TODO", "seq"]), path: "src" };
		} else {
			this.modifiedFiles.add(path);
			args =
				name === "edit"
					? {
							path,
							oldText: this.text("code", r.logNormal(300, 0.8, 20, 4000)),
							newText: this.text("code", r.logNormal(350, 0.8, 20, 4000)),
						}
					: { path, content: this.text("code", r.logNormal(2500, 0.9, 100, 30_000)) };
		}
		return { type: "toolCall", id: r.id("toolu_01", 22), name, arguments: args };
	}

	private toolResult(call: Extract<Block, { type: "toolCall" }>): Message {
		const r = this.random;
		const kind: TextKind =
			call.name === "read" ? "code" : call.name === "bash" || call.name === "grep" ? "shell" : "prose";
		const length = call.name === "edit" || call.name === "write" ? r.int(30, 200) : r.logNormal(2500, 1.1, 40, 60_000);
		return {
			role: "toolResult",
			content: [{ type: "text", text: this.text(kind, length) }],
			time: this.tick(3),
			toolCallId: call.id,
			toolName: call.name,
			isError: r.chance(0.05),
		};
	}

	private text(kind: TextKind, length: number): string {
		return this.corpus.take(kind, length);
	}

	private tick(meanSeconds: number): number {
		this.time += Math.round(this.random.next() * 2 * meanSeconds * 1000) + 1;
		return this.time;
	}
}
