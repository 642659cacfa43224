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
	writeFileSync(join(home, "config.yaml"), "default_model: demo\n");
	const servers: RunningServer[] = [];
	try {
		for (let i = 0; i < instances; i++) {
			servers.push(await startServer(home, { args: storeArgs, env: { AGENT_DEMO_TOKENS_PER_SECOND: "Infinity" } }));
		}
		const urls = servers.map((server) => server.url);
		const ids: string[] = [];
		for (let i = 0; i < load.sessions; i++) {
			ids.push((await json<{ id: string }>(urls[i % urls.length] as string, "POST", "/api/sessions", {})).id);
		}
		// A deterministic, even spread of sessions and instances, so runs compare: a 32-bit linear
		// congruential sequence (Math.imul keeps it exact), its high bits taken (the low ones cycle).
		let seed = 42;
		const next = (n: number) => {
			seed = (Math.imul(seed, 1_664_525) + 1_013_904_223) >>> 0;
			return (seed >>> 16) % n;
		};
		const latencies: number[] = [];
		const send = async (client: number, n: number) => {
			const id = ids[next(ids.length)] as string;
			const url = urls[next(urls.length)] as string;
			const started = performance.now();
			const answer = await request(url, "POST", `/api/sessions/${id}/messages?wait=1`, {
				body: JSON.stringify({ content: `client ${client} turn ${n}: what changed since the last deploy?` }),
				timeoutMs: 120_000,
			});
			if (answer.status !== 200) throw new Error(`send answered ${answer.status}: ${answer.text.slice(0, 300)}`);
			latencies.push(performance.now() - started);
		};
		// One untimed turn per session first: every instance's runtime and connections are warm.
		await Promise.all(ids.map((_, i) => send(-1, i)));
		latencies.length = 0;
		const started = performance.now();
		await Promise.all(
			Array.from({ length: load.clients }, async (_, client) => {
				for (let n = 0; n < load.sendsPerClient; n++) await send(client, n);
			}),
		);
		const seconds = (performance.now() - started) / 1000;
		const sorted = latencies.sort((a, b) => a - b);
		const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
		return { p50: at(0.5), p99: at(0.99), turnsPerSecond: sorted.length / seconds, turns: sorted.length };
	} finally {
		await Promise.all(servers.map((server) => server.stop()));
	}
}
