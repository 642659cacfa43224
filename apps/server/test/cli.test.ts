import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createFileStore } from "@agent/session-fs";
import { afterEach, describe, expect, it } from "vitest";
import { parseCliArgs } from "../src/cli-args.js";

const BIN = fileURLToPath(new URL("../dist/bin.js", import.meta.url));
const JSON_TYPE = { "Content-Type": "application/json" };
const children: ChildProcess[] = [];

const homes: string[] = [];

afterEach(async () => {
	for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
	await Promise.all(homes.splice(0).map((home) => fs.rm(home, { recursive: true, force: true })));
});

function run(args: string[], env: NodeJS.ProcessEnv = {}) {
	const child = spawn(process.execPath, [BIN, ...args], {
		env: { PATH: process.env.PATH, HOME: os.tmpdir(), ...env },
		stdio: ["ignore", "pipe", "pipe"],
	});
	children.push(child);
	let stdout = "";
	let stderr = "";
	child.stdout?.on("data", (chunk) => {
		stdout += chunk;
	});
	child.stderr?.on("data", (chunk) => {
		stderr += chunk;
	});
	const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
	const firstLine = new Promise<string>((resolve, reject) => {
		child.stdout?.on("data", () => {
			const newline = stdout.indexOf("\n");
			if (newline >= 0) resolve(stdout.slice(0, newline));
		});
		child.on("exit", () => reject(new Error(`exited before printing a line; stderr: ${stderr}`)));
	});
	// Tests that expect an early exit never await the first line.
	firstLine.catch(() => {});
	return { child, exited, firstLine, output: () => ({ stdout, stderr }) };
}

async function tempHome(): Promise<string> {
	const home = await fs.mkdtemp(path.join(os.tmpdir(), "agent-server-cli-"));
	homes.push(home);
	await fs.writeFile(path.join(home, "config.yaml"), "default_model: demo\n");
	return home;
}

describe("agent-sessions-server (the bin)", () => {
	it("prints `listening on http://HOST:PORT` first with --port 0, serves, and stops cleanly on SIGTERM", async () => {
		const home = await tempHome();
		const server = run(["--home", home, "--port", "0"]);
		const line = await server.firstLine;
		expect(line).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+$/);
		const url = line.replace("listening on ", "");
		const health = await fetch(`${url}/healthz`);
		expect(health.status).toBe(200);
		const created = await fetch(`${url}/api/sessions`, { method: "POST", headers: JSON_TYPE, body: "{}" });
		expect(created.status).toBe(201);
		const { id } = (await created.json()) as { id: string };
		await expect(fs.access(path.join(home, "sessions", id))).resolves.toBeUndefined();
		server.child.kill("SIGTERM");
		expect(await server.exited).toBe(0);
	});

	it("uses $AGENT_HOME when --home is not given", async () => {
		const home = await tempHome();
		const server = run(["--port", "0"], { AGENT_HOME: home });
		const url = (await server.firstLine).replace("listening on ", "");
		const { id } = (await (
			await fetch(`${url}/api/sessions`, { method: "POST", headers: JSON_TYPE, body: "{}" })
		).json()) as {
			id: string;
		};
		await expect(fs.access(path.join(home, "sessions", id))).resolves.toBeUndefined();
		server.child.kill("SIGTERM");
		await server.exited;
	});

	it("refuses to listen beyond loopback without a token, and says how to fix it", async () => {
		const home = await tempHome();
		const server = run(["--home", home, "--host", "0.0.0.0", "--port", "0"]);
		expect(await server.exited).toBe(1);
		expect(server.output().stderr).toContain("AGENT_SERVER_TOKEN");
		expect(server.output().stdout).toBe("");
	});

	it("listens beyond loopback with AGENT_SERVER_TOKEN, and requires it", async () => {
		const home = await tempHome();
		const token = "cli-test-token-0123456789";
		const server = run(["--home", home, "--host", "0.0.0.0", "--port", "0"], { AGENT_SERVER_TOKEN: token });
		const line = await server.firstLine;
		expect(line).toMatch(/^listening on http:\/\/0\.0\.0\.0:\d+$/);
		const port = line.split(":").at(-1);
		expect((await fetch(`http://127.0.0.1:${port}/api/sessions`)).status).toBe(401);
		const ok = await fetch(`http://127.0.0.1:${port}/api/sessions`, { headers: { Authorization: `Bearer ${token}` } });
		expect(ok.status).toBe(200);
		server.child.kill("SIGTERM");
		await server.exited;
	});

	it("on SIGTERM a running turn is interrupted after the grace period: prompt exit, its partial reply stored as aborted, its turn recorded as interrupted, the log verifies", async () => {
		const home = await tempHome();
		// About 3 tokens a second: the demo reply would stream for some 20 s.
		const server = run(["--home", home, "--port", "0", "--shutdown-grace", "1"], {
			AGENT_DEMO_TOKENS_PER_SECOND: "3",
		});
		const url = (await server.firstLine).replace("listening on ", "");
		const created = await fetch(`${url}/api/sessions`, { method: "POST", headers: JSON_TYPE, body: "{}" });
		const { id } = (await created.json()) as { id: string };
		const sent = await fetch(`${url}/api/sessions/${id}/messages`, {
			method: "POST",
			headers: JSON_TYPE,
			body: JSON.stringify({ content: "tell me a long story" }),
		});
		expect(sent.status).toBe(202);
		await expect
			.poll(async () => ((await (await fetch(`${url}/api/sessions/${id}`)).json()) as { lastSeq: number }).lastSeq, {
				timeout: 10_000,
			})
			.toBeGreaterThanOrEqual(1);

		const signalled = Date.now();
		server.child.kill("SIGTERM");
		expect(await server.exited).toBe(0);
		const tookMs = Date.now() - signalled;
		// Grace 1 s, then the abort lands at the model's next chunk (under 1.5 s at this speed).
		expect(tookMs).toBeLessThan(6000);
		expect(server.output().stderr).toMatch(/WARN {2}shutdown\.interrupting graceMs=1000/);
		expect(server.output().stderr).toMatch(/WARN {2}turn .*outcome=interrupted/);

		const store = createFileStore({ home });
		const [report] = await store.verify(id);
		expect(report?.problems).toEqual([]);
		expect(report?.ok).toBe(true);
		const records: Array<{ recordType: string; role?: string; stopReason?: string }> = [];
		for await (const record of store.read(id)) records.push(record as (typeof records)[number]);
		const messages = records.filter((record) => record.recordType === "message");
		expect(messages.map((record) => record.role)).toEqual(["user", "assistant"]);
		expect(messages[1]?.stopReason).toBe("aborted");
		expect(
			records
				.filter((record) => record.recordType === "turn")
				.map((record) => (record as { outcome?: string }).outcome),
		).toEqual(["interrupted"]);
		// The lease was released: the next writer gets it at once.
		const lease = await store.lease(id, { waitMs: 0 });
		await lease.release();
	});

	it('--home "" is a usage error (exit 2), not a silent fall back to ~/.agent', async () => {
		const home = await tempHome();
		const server = run(["--home", "", "--port", "0"], { AGENT_HOME: home });
		expect(await server.exited).toBe(2);
		expect(server.output().stderr).toContain("--home cannot be empty");
		expect(server.output().stdout).toBe("");
	});

	it("a bad --port is a usage error (exit 2)", async () => {
		const server = run(["--port", "http"]);
		expect(await server.exited).toBe(2);
		expect(server.output().stderr).toContain("--port");
	});
});

describe("parseCliArgs", () => {
	it("defaults to 127.0.0.1:4317 and reads --home, --host and --port", () => {
		expect(parseCliArgs([])).toMatchObject({ host: "127.0.0.1", port: 4317 });
		expect(parseCliArgs(["--home", "/tmp/x", "--host", "::1", "--port", "0"])).toMatchObject({
			home: "/tmp/x",
			host: "::1",
			port: 0,
		});
	});

	it("rejects ports outside 0..65535, fractions, and unknown options", () => {
		for (const port of ["-1", "65536", "1.5", "", "0x10"]) {
			expect(() => parseCliArgs(["--port", port]), port).toThrow();
		}
		expect(() => parseCliArgs(["--verbose"])).toThrow();
	});

	it("reads --shutdown-grace in seconds (default 5) and rejects anything else", () => {
		expect(parseCliArgs([]).shutdownGraceMs).toBe(5000);
		expect(parseCliArgs(["--shutdown-grace", "0.5"]).shutdownGraceMs).toBe(500);
		for (const grace of ["-1", "soon", "", "1e3"]) {
			expect(() => parseCliArgs(["--shutdown-grace", grace]), grace).toThrow(/--shutdown-grace/);
		}
	});

	it("reads the operations flags (logs, store wait, drain, limits, deadlines) and names a bad one", () => {
		expect(parseCliArgs([])).toMatchObject({ drainDelayMs: 0, waitForStoreMs: 300_000 });
		const args = parseCliArgs([
			"--log-format",
			"json",
			"--log-level",
			"warn",
			"--wait-for-store",
			"30",
			"--drain-delay",
			"2.5",
			"--max-queued-turns",
			"0",
			"--max-concurrent-turns",
			"8",
			"--turn-timeout",
			"600",
			"--model-call-timeout",
			"120",
		]);
		expect(args).toMatchObject({
			logFormat: "json",
			logLevel: "warn",
			waitForStoreMs: 30_000,
			drainDelayMs: 2500,
			maxQueuedTurns: 0,
			maxConcurrentTurns: 8,
			turnTimeoutMs: 600_000,
			modelCallTimeoutMs: 120_000,
		});
		expect(() => parseCliArgs(["--log-format", "xml"])).toThrow(/--log-format must be one of text, json/);
		expect(() => parseCliArgs(["--log-level", "loud"])).toThrow(/--log-level/);
		expect(() => parseCliArgs(["--max-concurrent-turns", "0"])).toThrow(/--max-concurrent-turns/);
		expect(() => parseCliArgs(["--turn-timeout", "ten"])).toThrow(/--turn-timeout must be a number of seconds/);
	});

	it("rejects an empty or blank --home", () => {
		for (const home of ["", " ", "\t"])
			expect(() => parseCliArgs(["--home", home]), JSON.stringify(home)).toThrow(/--home cannot be empty/);
	});
});
