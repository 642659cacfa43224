import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { startCluster, type ThrowawayCluster } from "@agent/session-pg/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LoggedProcess, startLogged } from "./support/logged-process.js";

/** A PostgreSQL of this test's own, which it stops and starts as a database restart would. */
const cluster: ThrowawayCluster | undefined = startCluster();

async function status(url: string): Promise<{ status: number; body: Record<string, unknown> }> {
	const response = await fetch(url);
	return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe.skipIf(cluster === undefined)(
	"readiness follows the database (a real PostgreSQL, stopped and started)",
	() => {
		let home: string;
		let server: LoggedProcess | undefined;
		beforeAll(async () => {
			home = await fs.mkdtemp(path.join(os.tmpdir(), "agent-readiness-"));
			await fs.writeFile(path.join(home, "config.yaml"), "default_model: demo\n");
		});
		afterAll(async () => {
			if (server?.child.exitCode === null) server.child.kill("SIGKILL");
			await fs.rm(home, { recursive: true, force: true });
		});

		it("waits for a database that is down at start (/healthz 200, /readyz 503 starting, API 503, a log line per try), serves once it is up, and /readyz follows it going away and back", async () => {
			const db = cluster as ThrowawayCluster;
			db.stop();
			server = startLogged(["--home", home, "--store", db.url, "--wait-for-store", "120"]);
			const starting = await server.line((line) => line.event === "server.starting");
			const url = String(starting.url);
			await server.line((line) => line.event === "store.waiting" && line.errorCode === "STORAGE_FAILURE");
			expect((await status(`${url}/healthz`)).status).toBe(200);
			const early = await status(`${url}/readyz`);
			expect(early).toMatchObject({ status: 503, body: { ready: false, status: "starting" } });
			const api = await fetch(`${url}/api/sessions`);
			expect(api.status).toBe(503);
			expect(((await api.json()) as { error: { code: string } }).error.code).toBe("STARTING");
			expect(server.stdout()).toBe("");

			db.start();
			expect(await server.listening).toBe(url);
			await server.line((line) => line.event === "store.reachable");
			expect((await status(`${url}/readyz`)).status).toBe(200);
			const created = await fetch(`${url}/api/sessions`, {
				method: "POST",
				headers: { "Content-Type": "application/json" },
				body: "{}",
			});
			expect(created.status).toBe(201);

			db.stop();
			await expect
				.poll(async () => (await status(`${url}/readyz`)).body.status, { timeout: 20_000 })
				.toBe("store_unreachable");
			expect((await status(`${url}/readyz`)).status).toBe(503);
			expect((await status(`${url}/healthz`)).status).toBe(200);
			const unreachable = await server.line((line) => line.event === "store.unreachable");
			expect(unreachable.level).toBe("error");
			// The probe's details go to the log, not to whoever asks /readyz (it needs no token).
			expect(JSON.stringify((await status(`${url}/readyz`)).body)).not.toContain("127.0.0.1");
			const metrics = await (await fetch(`${url}/metrics`)).text();
			expect(metrics).toMatch(/^agent_store_errors_total\{operation="metadata",code="STORAGE_FAILURE"\} [1-9]/m);
			expect(metrics).toMatch(/^agent_ready 0$/m);

			db.start();
			await expect.poll(async () => (await status(`${url}/readyz`)).status, { timeout: 30_000 }).toBe(200);
			const listed = await fetch(`${url}/api/sessions`);
			expect(listed.status).toBe(200);

			server.child.kill("SIGTERM");
			expect(await server.exited).toBe(0);
		}, 120_000);

		it("gives up after --wait-for-store with a clear message (exit 1) when the database never comes", async () => {
			const db = cluster as ThrowawayCluster;
			db.stop();
			try {
				const waiting = startLogged(["--home", home, "--store", db.url, "--wait-for-store", "1"]);
				expect(await waiting.exited).toBe(1);
				const text = waiting.lines.map((line) => String(line.text ?? "")).join("\n");
				expect(text).toMatch(/the store was not reachable within 1 s \(--wait-for-store\)/);
			} finally {
				db.start();
			}
		}, 60_000);
	},
);
