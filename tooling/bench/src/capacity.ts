import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { RunningServer } from "@agent/reliability/server-process";
import WebSocket from "ws";
import { createSessions, type SendLatency, sendTurns, startInstances, warmUp } from "./send-latency.js";

/**
 * What an operator sizes a deployment by: turns/s, latency and memory of real server processes
 * with many WebSockets open, and whether the heap grows with the turns served. The demo model
 * answers at once (`AGENT_DEMO_TOKENS_PER_SECOND=Infinity`): the figures are the server and its
 * store, not a model.
 */

export interface CapacityLoad {
	clients: number;
	sendsPerClient: number;
	sessions: number;
	/** WebSockets held open through the run, spread over the instances. */
	sockets: number;
}

export interface CapacityRun extends SendLatency {
	instances: number;
	/** Each instance's resident memory at the end of the run, and its peak (VmRSS, VmHWM). */
	rss: Array<{ now: number; peak: number }>;
	/** Sockets still open at the end (every one should be). */
	socketsOpen: number;
	/** Event messages the sockets received in all. */
	events: number;
	/** What opening the sockets added to the instances' heap and external memory after a full GC, per socket, in bytes. */
	bytesPerSocket: number;
	/** CPU seconds during the timed turns: the server processes (summed), and this process (the clients and sockets). */
	cpu: { servers: number; clients: number };
}

const PROTOCOL = "agent-sessions.v1";
/** One socket in five follows the feed of every session (the page's list); the others one session (an open transcript). */
const FEED_EVERY = 5;

export async function measureCapacity(
	home: string,
	storeArgs: string[],
	instances: number,
	load: CapacityLoad,
): Promise<CapacityRun> {
	const probeFile = join(home, "heap-probe.jsonl");
	const servers = await startInstances(home, storeArgs, instances, probeEnv(probeFile));
	const sockets: WebSocket[] = [];
	try {
		const urls = servers.map((server) => server.url);
		const ids = await createSessions(urls, load.sessions);
		let events = 0;
		await warmUp(urls, ids);
		// The heap and the memory outside it (socket buffers) after a full GC, summed over the instances.
		const memory = async () => {
			let sum = 0;
			for (const server of servers) {
				const usage = await memoryOf(server, probeFile);
				sum += usage.heapUsed + usage.external;
			}
			return sum;
		};
		const withoutSockets = await memory();
		for (let i = 0; i < load.sockets; i++) {
			const base = (urls[i % urls.length] as string).replace(/^http/, "ws");
			const path = i % FEED_EVERY === 0 ? "/api/events" : `/api/sessions/${ids[i % ids.length]}/events`;
			sockets.push(await openSocket(`${base}${path}`, () => events++));
		}
		const bytesPerSocket = load.sockets > 0 ? ((await memory()) - withoutSockets) / load.sockets : 0;
		events = 0;
		const serversBefore = servers.reduce((sum, server) => sum + cpuSeconds(server.child.pid), 0);
		const clientsBefore = process.cpuUsage();
		const latency = await sendTurns(urls, ids, load.clients, load.sendsPerClient);
		const clients = process.cpuUsage(clientsBefore);
		const cpu = {
			servers: servers.reduce((sum, server) => sum + cpuSeconds(server.child.pid), 0) - serversBefore,
			clients: (clients.user + clients.system) / 1e6,
		};
		return {
			...latency,
			instances,
			rss: servers.map((server) => residentMemory(server.child.pid)),
			socketsOpen: sockets.filter((socket) => socket.readyState === WebSocket.OPEN).length,
			events,
			bytesPerSocket,
			cpu,
		};
	} finally {
		for (const socket of sockets) socket.terminate();
		await Promise.all(servers.map((server) => server.stop()));
	}
}

export interface HeapGrowth {
	/** Heap used after a full GC, in bytes: before the first step, then after each step's turns. */
	heapUsed: number[];
	turnsPerStep: number;
	/** Least-squares slope of heapUsed over the steps after the first (the first warms caches up), in bytes per 1,000 turns. */
	bytesPer1000Turns: number;
	rss: { now: number; peak: number };
}

/**
 * The heap of one server instance, measured after a full GC (the instance runs with --expose-gc
 * and a probe, heap-probe.ts, that writes process.memoryUsage() on SIGUSR2), before and after
 * each of `steps` runs of `turnsPerStep` turns.
 */
export async function measureHeapGrowth(
	home: string,
	storeArgs: string[],
	load: { clients: number; sessions: number; turnsPerStep: number; steps: number },
): Promise<HeapGrowth> {
	const probeFile = join(home, "heap-probe.jsonl");
	const [server] = await startInstances(home, storeArgs, 1, probeEnv(probeFile));
	const instance = server as RunningServer;
	try {
		const ids = await createSessions([instance.url], load.sessions);
		await warmUp([instance.url], ids);
		const heapUsed = [(await memoryOf(instance, probeFile)).heapUsed];
		for (let step = 0; step < load.steps; step++) {
			await sendTurns([instance.url], ids, load.clients, Math.ceil(load.turnsPerStep / load.clients));
			heapUsed.push((await memoryOf(instance, probeFile)).heapUsed);
		}
		const steady = heapUsed.slice(1);
		return {
			heapUsed,
			turnsPerStep: Math.ceil(load.turnsPerStep / load.clients) * load.clients,
			bytesPer1000Turns: (slope(steady) * 1000) / (Math.ceil(load.turnsPerStep / load.clients) * load.clients),
			rss: residentMemory(instance.child.pid),
		};
	} finally {
		await instance.stop();
	}
}

function openSocket(url: string, onMessage: () => void): Promise<WebSocket> {
	return new Promise((resolve, reject) => {
		const socket = new WebSocket(url, [PROTOCOL]);
		socket.once("open", () => resolve(socket));
		socket.once("error", reject);
		socket.on("message", onMessage);
	});
}

/** User and system CPU time a process has used, in seconds (Linux: /proc/PID/stat, in clock ticks of 1/100 s). */
function cpuSeconds(pid: number): number {
	const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
	// The fields after the command (which may hold spaces), from its closing parenthesis on.
	const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
	return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** VmRSS and VmHWM of a process, in bytes (Linux). */
function residentMemory(pid: number): { now: number; peak: number } {
	const status = readFileSync(`/proc/${pid}/status`, "utf8");
	const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? Number.NaN);
	return { now: kib("VmRSS") * 1024, peak: kib("VmHWM") * 1024 };
}

/** The environment that loads heap-probe.ts into a server, answering in `probeFile`. */
function probeEnv(probeFile: string): NodeJS.ProcessEnv {
	const probe = new URL("./heap-probe.js", import.meta.url).href;
	return {
		NODE_OPTIONS: `--expose-gc --import=${probe}`,
		BENCH_HEAP_PROBE: probeFile,
		...(process.env.BENCH_HEAP_SNAPSHOTS ? { BENCH_HEAP_SNAPSHOTS: process.env.BENCH_HEAP_SNAPSHOTS } : {}),
	};
}

/** Asks an instance's probe for process.memoryUsage() after a full GC and waits for the answer. */
async function memoryOf(server: RunningServer, probeFile: string): Promise<NodeJS.MemoryUsage> {
	const lines = () => (existsSync(probeFile) ? readFileSync(probeFile, "utf8").split("\n").filter(Boolean) : []);
	const before = lines().length;
	process.kill(server.child.pid, "SIGUSR2");
	for (let tries = 0; tries < 400; tries++) {
		await new Promise((resolve) => setTimeout(resolve, 25));
		const now = lines();
		if (now.length > before) return JSON.parse(now[now.length - 1] as string) as NodeJS.MemoryUsage;
	}
	throw new Error(`the heap probe of server ${server.child.pid} did not answer`);
}

/** Least-squares slope of values over their index. */
function slope(values: readonly number[]): number {
	const n = values.length;
	if (n < 2) return 0;
	const meanX = (n - 1) / 2;
	const meanY = values.reduce((sum, value) => sum + value, 0) / n;
	let numerator = 0;
	let denominator = 0;
	for (const [x, y] of values.entries()) {
		numerator += (x - meanX) * (y - meanY);
		denominator += (x - meanX) ** 2;
	}
	return numerator / denominator;
}
