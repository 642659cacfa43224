import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { json, request } from "@agent/reliability/http";
import { type RunningServer, startServer } from "@agent/reliability/server-process";

export interface SendLoad {
	/** Clients sending at once, each one turn after another. */
	clients: number;
	/** Turns each client sends. */
	sendsPerClient: number;
	/** Sessions the clients pick from at random (turns of one session queue behind each other). */
	sessions: number;
}

export interface SendLatency {
	p50: number;
	p99: number;
	turnsPerSecond: number;
	turns: number;
}

/**
 * Send latency as users meet it: real server processes (`agent-sessions-server`, the demo model
 * answering as fast as it can, so the figure is the server and its store, not a model), clients
 * sending `POST /api/sessions/:id/messages?wait=1` (200 once the reply is stored) to random
 * sessions through random instances, all at once. `storeArgs` picks the store (`--store URL` for
 * PostgreSQL, none for the file store under `home`); `instances` servers share it.
 */
export async function measureSendLatency(
	home: string,
	storeArgs: string[],
	instances: number,
	load: SendLoad,
): Promise<SendLatency> {
	const servers = await startInstances(home, storeArgs, instances);
	try {
		const urls = servers.map((server) => server.url);
		const ids = await createSessions(urls, load.sessions);
		await warmUp(urls, ids);
		return await sendTurns(urls, ids, load.clients, load.sendsPerClient);
	} finally {
		await Promise.all(servers.map((server) => server.stop()));
	}
}

/** `count` server processes on one store (the demo model at full speed); stopped by the caller. */
export async function startInstances(
	home: string,
	storeArgs: string[],
	count: number,
	env: NodeJS.ProcessEnv = {},
): Promise<RunningServer[]> {
	writeFileSync(join(home, "config.yaml"), "default_model: demo\n");
	const servers: RunningServer[] = [];
	try {
		for (let i = 0; i < count; i++) {
			servers.push(
				await startServer(home, { args: storeArgs, env: { AGENT_DEMO_TOKENS_PER_SECOND: "Infinity", ...env } }),
			);
		}
	} catch (error) {
		await Promise.all(servers.map((server) => server.stop()));
		throw error;
	}
	return servers;
}

/** `count` new sessions, made through the instances in turn. */
export async function createSessions(urls: readonly string[], count: number): Promise<string[]> {
	const ids: string[] = [];
	for (let i = 0; i < count; i++) {
		ids.push((await json<{ id: string }>(urls[i % urls.length] as string, "POST", "/api/sessions", {})).id);
	}
	return ids;
}

/** One untimed turn per session: every instance's runtime and connections are warm. */
export async function warmUp(urls: readonly string[], ids: readonly string[]): Promise<void> {
	await Promise.all(ids.map((id, i) => sendOne(urls[i % urls.length] as string, id, `warm-up ${i}`)));
}

/**
 * `clients` clients at once, each sending `sends` turns one after another to sessions and
 * instances picked by a deterministic, even spread (a 32-bit linear congruential sequence, its
 * high bits taken: the low ones cycle), so runs compare.
 */
export async function sendTurns(
	urls: readonly string[],
	ids: readonly string[],
	clients: number,
	sends: number,
): Promise<SendLatency> {
	let seed = 42;
	const next = (n: number) => {
		seed = (Math.imul(seed, 1_664_525) + 1_013_904_223) >>> 0;
		return (seed >>> 16) % n;
	};
	const latencies: number[] = [];
	const started = performance.now();
	await Promise.all(
		Array.from({ length: clients }, async (_, client) => {
			for (let n = 0; n < sends; n++) {
				const id = ids[next(ids.length)] as string;
				const url = urls[next(urls.length)] as string;
				const sent = performance.now();
				await sendOne(url, id, `client ${client} turn ${n}: what changed since the last deploy?`);
				latencies.push(performance.now() - sent);
			}
		}),
	);
	const seconds = (performance.now() - started) / 1000;
	const sorted = latencies.sort((a, b) => a - b);
	const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
	return { p50: at(0.5), p99: at(0.99), turnsPerSecond: sorted.length / seconds, turns: sorted.length };
}

async function sendOne(url: string, id: string, content: string): Promise<void> {
	const answer = await request(url, "POST", `/api/sessions/${id}/messages?wait=1`, {
		body: JSON.stringify({ content }),
		timeoutMs: 120_000,
	});
	if (answer.status !== 200) throw new Error(`send answered ${answer.status}: ${answer.text.slice(0, 300)}`);
}
