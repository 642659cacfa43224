import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import WebSocket from "ws";
import type { CaseContext, ReliabilityCase } from "../support/case.js";
import { json, request } from "../support/http.js";
import { makeSandbox } from "../support/sandbox.js";
import { startServer } from "../support/server-process.js";

const MiB = 1024 * 1024;
/** The close code of a socket the server dropped for falling behind (agent-sessions-server's README). */
const SLOW_READER_CLOSE = 4008;

/** A WebSocket on a session's events that stops reading once subscribed. */
interface PausedReader {
	closed: Promise<number>;
	resume(): void;
}

/**
 * Many WebSocket readers that stop reading, then large events (turns whose user message is
 * 3.5 MiB: each is a record.appended and a turn.completed that large): the server's memory stays
 * bounded (its peak RSS is read from /proc), every stalled reader is dropped, a reader keeping up
 * gets every event, and the server answers throughout. Before the send budget, 150 stalled
 * readers and three such turns took the server from 99 MB to 1.7 GB.
 */
async function run(context: CaseContext): Promise<void> {
	const { readers, turns } = context.profile.slowReaders;
	const sandbox = makeSandbox("slow-readers");
	// Without compaction: a 3.5 MiB message is far over the demo model's window.
	writeFileSync(join(sandbox.home, "config.yaml"), "default_model: demo\ncompaction:\n  enabled: false\n");
	const server = await startServer(sandbox.home);
	const opened: WebSocket[] = [];
	try {
		const session = await json<{ id: string }>(server.url, "POST", "/api/sessions", { name: "slow readers" });
		const url = `${server.url.replace(/^http/, "ws")}/api/sessions/${session.id}/events`;
		const reader = await readingClient(url, opened);
		const stalled = await Promise.all(Array.from({ length: readers }, () => pausedReader(url, opened)));
		const before = memoryOf(server.child.pid);

		const content = "x".repeat(3.5 * MiB);
		for (let turn = 0; turn < turns; turn++) {
			const answer = await request(server.url, "POST", `/api/sessions/${session.id}/messages?wait=1`, {
				body: JSON.stringify({ content }),
				timeoutMs: 120_000,
			});
			context.check(answer.status === 200, `turn ${turn + 1} answered ${answer.status}: ${answer.text.slice(0, 200)}`);
			const health = await request(server.url, "GET", "/healthz", { timeoutMs: 5_000 });
			context.check(health.status === 200, `/healthz answered ${health.status} during the load`);
		}
		const after = memoryOf(server.child.pid);

		// Resumed a moment later: each takes its backlog and sees its end (the code, or 1006 if it was cut first).
		await new Promise((resolve) => setTimeout(resolve, 1500));
		for (const paused of stalled) paused.resume();
		const codes = await Promise.all(
			stalled.map((paused) => Promise.race([paused.closed, sleep(120_000).then(() => 0)])),
		);
		const dropped = codes.filter((code) => code === SLOW_READER_CLOSE || code === 1006).length;
		context.check(
			dropped === readers,
			`${readers - dropped} of ${readers} stalled readers were not closed within 120 s of reading again`,
		);
		await waitUntil(() => reader.completed >= turns, 30_000);
		context.check(reader.completed === turns, `the reading client got ${reader.completed} of ${turns} turn.completed`);
		context.check(reader.socket.readyState === WebSocket.OPEN, "the reading client was dropped");
		const growth = after.peakRssBytes - before.rssBytes;
		context.check(
			growth < 512 * MiB,
			`the server's peak memory grew by ${Math.round(growth / MiB)} MiB (bounded means well under 512 MiB)`,
		);

		context.figure("stalled readers", readers);
		context.figure("turns of 3.5 MiB (a record.appended and a turn.completed each)", turns);
		context.figure("server RSS before (MiB)", Math.round(before.rssBytes / MiB));
		context.figure("server peak RSS after (MiB)", Math.round(after.peakRssBytes / MiB));
		context.figure(
			"stalled readers closed with 4008 / cut (1006)",
			`${codes.filter((code) => code === SLOW_READER_CLOSE).length} / ${codes.filter((code) => code === 1006).length}`,
		);
		context.figure("events the reading client got", reader.events);
	} finally {
		for (const socket of opened) socket.terminate();
		await server.stop();
		sandbox.remove();
	}
}

function sleep(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

async function waitUntil(condition: () => boolean, timeoutMs: number): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!condition() && Date.now() < deadline) await sleep(50);
}

/** RSS now and its peak since the process started (VmHWM), from /proc. */
function memoryOf(pid: number): { rssBytes: number; peakRssBytes: number } {
	const status = readFileSync(`/proc/${pid}/status`, "utf8");
	const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB$`, "m").exec(status)?.[1] ?? 0) * 1024;
	return { rssBytes: kib("VmRSS"), peakRssBytes: kib("VmHWM") };
}

function connect(url: string, opened: WebSocket[]): Promise<WebSocket> {
	const socket = new WebSocket(url, ["agent-sessions.v1"]);
	opened.push(socket);
	return new Promise((resolve, reject) => {
		socket.once("error", reject);
		socket.once("message", () => resolve(socket));
	});
}

async function readingClient(url: string, opened: WebSocket[]) {
	const socket = await connect(url, opened);
	const state = { socket, events: 0, completed: 0 };
	socket.on("message", (data) => {
		state.events++;
		if ((JSON.parse(String(data)) as { type: string }).type === "turn.completed") state.completed++;
	});
	return state;
}

async function pausedReader(url: string, opened: WebSocket[]): Promise<PausedReader> {
	const socket = await connect(url, opened);
	const closed = new Promise<number>((resolve) => socket.on("close", (code) => resolve(code)));
	// ws keeps its net.Socket private; pausing it stops reading, so the server's writes pile up.
	const raw = (socket as unknown as { _socket: { pause(): void; resume(): void } })._socket;
	raw.pause();
	return { closed, resume: () => raw.resume() };
}

export const slowReaders: ReliabilityCase = { name: "slow-readers", run };
