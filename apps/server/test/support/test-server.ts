import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { AgentSessions, type AgentSessionsOptions } from "@agent/session";
import { type RunningServer, type ServerOptions, startServer } from "../../src/server.js";

export interface TestServer extends RunningServer {
	home: string;
	/** fetch against the server: `api("/api/sessions", { method: "POST", json: {...} })`. */
	api(urlPath: string, init?: RequestInit & { json?: unknown }): Promise<Response>;
}

const servers: TestServer[] = [];

/**
 * A real server on a free loopback port over a fresh store in a temp dir, with the offline demo
 * model as the default (config.yaml `default_model: demo` plus whatever `configYaml` adds).
 */
export async function startTestServer(
	options: { configYaml?: string; server?: ServerOptions; runtime?: Partial<AgentSessionsOptions> } = {},
): Promise<TestServer> {
	const home = await fs.mkdtemp(path.join(os.tmpdir(), "agent-server-test-"));
	await fs.writeFile(path.join(home, "config.yaml"), `default_model: demo\n${options.configYaml ?? ""}`);
	let running: RunningServer;
	try {
		const runtime = await AgentSessions.open({ home, ...options.runtime });
		running = await startServer({ runtime, port: 0, env: {}, log: () => {}, ...options.server });
	} catch (error) {
		await fs.rm(home, { recursive: true, force: true });
		throw error;
	}
	const server: TestServer = {
		...running,
		home,
		api(urlPath, init = {}) {
			const { json, ...rest } = init;
			const headers = new Headers(rest.headers);
			if (json !== undefined) headers.set("Content-Type", "application/json");
			return fetch(`${running.url}${urlPath}`, {
				...rest,
				headers,
				...(json !== undefined ? { body: JSON.stringify(json) } : {}),
			});
		},
		async close() {
			await running.close();
			await fs.rm(home, { recursive: true, force: true });
		},
	};
	servers.push(server);
	return server;
}

/** Closes every server started by the current test file (call from afterAll/afterEach). */
export async function closeTestServers(): Promise<void> {
	await Promise.all(servers.splice(0).map((server) => server.close()));
}

/** Creates a session through the API and returns its metadata. */
export async function createSession(server: TestServer, body: Record<string, unknown> = {}) {
	const response = await server.api("/api/sessions", { method: "POST", json: body });
	if (response.status !== 201) throw new Error(`create failed: ${response.status} ${await response.text()}`);
	return (await response.json()) as { id: string; name?: string; model: string; source: string; cronJobId?: string };
}
