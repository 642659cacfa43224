import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { StoreCheckpointer } from "@agent/langgraph";
import { createFileStore } from "@agent/session-fs";
import { AIMessage, type BaseMessage, HumanMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import { type BaseCheckpointSaver, MemorySaver } from "@langchain/langgraph-checkpoint";
import { describeMachine } from "./machine.js";

/**
 * What a LangGraph thread costs on disk: one messages graph (a chat node answering each user
 * message through LangChain's fake model) run turn by turn on one thread over StoreCheckpointer
 * (the file store), LangGraph's SqliteSaver (when @langchain/langgraph-checkpoint-sqlite and its
 * native better-sqlite3 are installed; an optional dependency) and its MemorySaver (the bytes of
 * what it serialized), one after the other in this process. Also: the time of the run, and of the
 * first getTuple of the thread by a new checkpointer (what a new process pays to resume it).
 */

const USAGE = "usage: node dist/langgraph-bench.js [--quick]";
const USER_CHARS = 120;
const ANSWER_CHARS = 480;

interface Saver {
	name: string;
	saver: BaseCheckpointSaver;
	bytes(): number;
	/** A new checkpointer over the same storage (a new process), when there is one. */
	reopen?(): BaseCheckpointSaver;
	close(): void;
}

interface Result {
	name: string;
	bytes: number[];
	seconds: number;
	reopenMs?: number;
	error?: string;
}

const filler = (head: string, chars: number) => head.padEnd(chars, " lorem ipsum dolor sit amet");

function chatGraph(checkpointer: BaseCheckpointSaver, turns: number) {
	const model = fakeModel();
	for (let i = 0; i < turns; i++) {
		model.respond(
			(messages: BaseMessage[]) => new AIMessage(filler(`Answer ${Math.ceil(messages.length / 2)}:`, ANSWER_CHARS)),
		);
	}
	return new StateGraph(MessagesAnnotation)
		.addNode("chat", async ({ messages }) => ({ messages: [await model.invoke(messages)] }))
		.addEdge(START, "chat")
		.compile({ checkpointer });
}

function directoryBytes(dir: string): number {
	let total = 0;
	for (const entry of readdirSync(dir, { withFileTypes: true })) {
		const path = join(dir, entry.name);
		total += entry.isDirectory() ? directoryBytes(path) : statSync(path).size;
	}
	return total;
}

function ours(scratch: string): Saver {
	const home = join(scratch, "agent-home");
	const store = createFileStore({ home });
	return {
		name: "StoreCheckpointer (file store)",
		saver: new StoreCheckpointer({ store }),
		bytes: () => directoryBytes(join(home, "sessions")),
		reopen: () => new StoreCheckpointer({ store: createFileStore({ home }) }),
		close: () => undefined,
	};
}

function memory(): Saver {
	const saver = new MemorySaver();
	return {
		name: "MemorySaver (bytes it serialized)",
		saver,
		bytes() {
			let total = 0;
			for (const namespaces of Object.values(saver.storage)) {
				for (const checkpoints of Object.values(namespaces)) {
					for (const [checkpoint, metadata, parent] of Object.values(checkpoints)) {
						total += checkpoint.byteLength + metadata.byteLength + (parent?.length ?? 0);
					}
				}
			}
			for (const writes of Object.values(saver.writes)) {
				for (const [taskId, channel, value] of Object.values(writes))
					total += taskId.length + channel.length + value.byteLength;
			}
			return total;
		},
		close: () => undefined,
	};
}

interface SqliteModule {
	SqliteSaver: {
		fromConnString(path: string): BaseCheckpointSaver & { db: { pragma(sql: string): unknown; close(): void } };
	};
}

async function sqlite(scratch: string): Promise<Saver | string> {
	const name = "@langchain/langgraph-checkpoint-sqlite";
	let module: SqliteModule;
	let saver: ReturnType<SqliteModule["SqliteSaver"]["fromConnString"]>;
	const path = join(scratch, "checkpoints.sqlite");
	try {
		module = (await import(name)) as SqliteModule;
		// better-sqlite3 loads its native binding here, not at import.
		saver = module.SqliteSaver.fromConnString(path);
	} catch (error) {
		return `not installed (${(error as Error).message.split("\n")[0]}); build its native better-sqlite3 with \`pnpm --filter @agent/bench rebuild better-sqlite3\``;
	}
	return {
		name: "SqliteSaver",
		saver,
		bytes() {
			// Its WAL copied into the database first, so the file holds everything.
			saver.db.pragma("wal_checkpoint(TRUNCATE)");
			return statSync(path).size;
		},
		reopen: () => module.SqliteSaver.fromConnString(path),
		close: () => saver.db.close(),
	};
}

async function run(saver: Saver, turns: number, marks: number[]): Promise<Result> {
	const config = { configurable: { thread_id: "bench-thread" } };
	const graph = chatGraph(saver.saver, turns);
	const bytes: number[] = [];
	const started = performance.now();
	for (let turn = 1; turn <= turns; turn++) {
		await graph.invoke({ messages: [new HumanMessage(filler(`Question ${turn}:`, USER_CHARS))] }, config);
		if (marks.includes(turn)) bytes.push(saver.bytes());
	}
	const seconds = (performance.now() - started) / 1000;
	const result: Result = { name: saver.name, bytes, seconds };
	if (saver.reopen) {
		const fresh = saver.reopen();
		const opened = performance.now();
		const tuple = await fresh.getTuple(config);
		result.reopenMs = performance.now() - opened;
		const messages = (tuple?.checkpoint.channel_values as { messages?: unknown[] } | undefined)?.messages;
		if (messages?.length !== turns * 2)
			throw new Error(`${saver.name}: the reopened thread has ${messages?.length} messages`);
	}
	return result;
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(bytes < 1e7 ? 2 : 1)} MB`;

async function main(): Promise<number> {
	const { values } = parseArgs({ options: { quick: { type: "boolean", default: false }, help: { type: "boolean" } } });
	if (values.help) {
		console.log(USAGE);
		return 0;
	}
	const turns = values.quick ? 100 : 1000;
	const marks = [turns / 4, turns / 2, turns];
	const scratch = mkdtempSync(join(tmpdir(), "langgraph-bench-"));
	const results: Result[] = [];
	let skipped: string | undefined;
	try {
		const sqliteSaver = await sqlite(scratch);
		if (typeof sqliteSaver === "string") skipped = `SqliteSaver: ${sqliteSaver}`;
		for (const saver of [ours(scratch), ...(typeof sqliteSaver === "string" ? [] : [sqliteSaver]), memory()]) {
			console.error(`langgraph bench: ${saver.name}, ${turns} turns`);
			try {
				results.push(await run(saver, turns, marks));
			} catch (error) {
				results.push({ name: saver.name, bytes: [], seconds: 0, error: (error as Error).message });
			} finally {
				saver.close();
			}
			(globalThis as { gc?: () => void }).gc?.();
		}
	} finally {
		rmSync(scratch, { recursive: true, force: true });
	}
	console.log(`\n## A LangGraph thread on disk: ${turns} turns of a messages graph\n`);
	console.log(`Machine: ${describeMachine(tmpdir()).summary}\n`);
	console.log(
		`Each turn: a ${USER_CHARS}-character user message in, a ${ANSWER_CHARS}-character answer out (3 checkpoints, 2 messages).\n`,
	);
	console.log(
		`| checkpointer | ${marks.map((m) => `${m} turns`).join(" | ")} | time of the run | a new checkpointer's first getTuple |`,
	);
	console.log(`|---|${marks.map(() => "---:").join("|")}|---:|---:|`);
	for (const result of results) {
		if (result.error) {
			console.log(`| ${result.name} | failed: ${result.error} |`);
			continue;
		}
		const reopen = result.reopenMs === undefined ? "" : `${result.reopenMs.toFixed(0)} ms`;
		console.log(
			`| ${result.name} | ${result.bytes.map(mb).join(" | ")} | ${result.seconds.toFixed(1)} s | ${reopen} |`,
		);
	}
	if (skipped) console.log(`\n${skipped}`);
	return results.some((result) => result.error) ? 1 : 0;
}

process.exitCode = await main();
