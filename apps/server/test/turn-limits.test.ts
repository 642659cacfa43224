import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LoggedProcess, startLogged } from "./support/logged-process.js";

function sample(text: string, name: string): number | undefined {
	const line = text.split("\n").find((candidate) => candidate.startsWith(`${name} `));
	return line === undefined ? undefined : Number(line.slice(name.length + 1));
}

describe("limits of a real server process", () => {
	let home: string;
	let server: LoggedProcess | undefined;
	beforeAll(async () => {
		home = await fs.mkdtemp(path.join(os.tmpdir(), "agent-limits-"));
		await fs.writeFile(path.join(home, "config.yaml"), "default_model: demo\nserver:\n  max_concurrent_turns: 3\n");
	});
	afterAll(async () => {
		if (server?.child.exitCode === null) server.child.kill("SIGKILL");
		await fs.rm(home, { recursive: true, force: true });
	});

	it("--max-concurrent-turns (over server.max_concurrent_turns) caps the turns running at once; the others wait, queued", async () => {
		// About 4 s a reply: the turns overlap for as long as the test looks.
		server = startLogged(["--home", home, "--max-concurrent-turns", "1"], { AGENT_DEMO_TOKENS_PER_SECOND: "20" });
		const url = await server.listening;
		const ids: string[] = [];
		for (let i = 0; i < 3; i++) {
			const created = await fetch(`${url}/api/sessions`, {
				method: "POST",
				headers: { "Content-Type": "application/json" },
				body: "{}",
			});
			ids.push(((await created.json()) as { id: string }).id);
		}
		const sends = ids.map((id) =>
			fetch(`${url}/api/sessions/${id}/messages?wait=1`, {
				method: "POST",
				headers: { "Content-Type": "application/json" },
				body: JSON.stringify({ content: "tell me a story" }),
			}),
		);
		const metrics = async () => (await fetch(`${url}/metrics`)).text();
		// Once the first turn runs (the runtime loads its turn code with the first turn, so all three
		// may be queued for a moment before), the other two wait for its slot: one running, two queued.
		const counts = async () => {
			const text = await metrics();
			return { running: sample(text, "agent_turns_running") ?? 0, queued: sample(text, "agent_turns_queued") ?? 0 };
		};
		await expect.poll(counts, { timeout: 20_000 }).toEqual({ running: 1, queued: 2 });
		for (const response of await Promise.all(sends)) expect(response.status).toBe(200);
		// They ran one after another: no two turn lines overlap in time.
		const turns = server.lines
			.filter((line) => line.event === "turn")
			.map((line) => ({ end: Date.parse(String(line.time)), duration: Number(line.durationMs) }))
			.sort((a, b) => a.end - b.end);
		expect(turns).toHaveLength(3);
		for (let i = 1; i < turns.length; i++) {
			const current = turns[i] as { end: number; duration: number };
			expect(current.end - current.duration).toBeGreaterThanOrEqual((turns[i - 1] as { end: number }).end - 5);
		}
		server.child.kill("SIGTERM");
		expect(await server.exited).toBe(0);
	}, 60_000);

	it("--turn-timeout reaches the runtime: a turn that runs past it is stopped and recorded as timed_out", async () => {
		// A token a second: the demo model's reply takes about a minute, the deadline one second.
		server = startLogged(["--home", home, "--turn-timeout", "1"], { AGENT_DEMO_TOKENS_PER_SECOND: "1" });
		const url = await server.listening;
		const headers = { "Content-Type": "application/json" };
		const created = await fetch(`${url}/api/sessions`, { method: "POST", headers, body: "{}" });
		const { id } = (await created.json()) as { id: string };
		const sent = await fetch(`${url}/api/sessions/${id}/messages?wait=1`, {
			method: "POST",
			headers,
			body: JSON.stringify({ content: "tell me a story" }),
		});
		expect(sent.status).toBe(504);
		expect(((await sent.json()) as { error?: { code: string } }).error?.code).toBe("TIMED_OUT");
		const { turns } = (await (await fetch(`${url}/api/sessions/${id}/turns`)).json()) as {
			turns: Array<{ outcome: string; durationMs: number }>;
		};
		expect(turns.map((turn) => turn.outcome)).toEqual(["timed_out"]);
		// Stopped at its deadline, not when the reply would have ended.
		expect(turns[0]?.durationMs).toBeLessThan(30_000);
		server.child.kill("SIGTERM");
		expect(await server.exited).toBe(0);
	}, 60_000);
});
