// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config.yaml's ${NAME} references are written here
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Instance, startInstance } from "./support/instance.js";

const OLD = "alice-old-token-0123456789";
const NEW = "alice-new-token-0123456789";
const CAROL = "carol-token-0123456789abcd";
const ADMIN = "admin-token-0123456789abcd";

function config(users: Array<{ name: string; token: string }>): string {
	return [
		"default_model: demo",
		"server:",
		"  token: ${ADMIN_TOKEN}",
		"  users:",
		...users.flatMap((user) => [`    - name: ${user.name}`, `      token: ${user.token}`]),
		"",
	].join("\n");
}

describe("SIGHUP reloads config.yaml with no restart (a real process)", () => {
	let home: string;
	let server: Instance;
	const status = async (token: string) =>
		(await fetch(`${server.url}/api/sessions`, { headers: { Authorization: `Bearer ${token}` } })).status;
	/** Sends SIGHUP and waits for the line in which the server says what came of it. */
	const hangUp = (event: RegExp) => {
		const from = server.stderr.length;
		server.child.kill("SIGHUP");
		return server.waitForLog(event, { from });
	};

	beforeAll(async () => {
		home = await fs.mkdtemp(path.join(os.tmpdir(), "agent-reload-"));
		await fs.writeFile(path.join(home, "config.yaml"), config([{ name: "alice", token: OLD }]));
		server = await startInstance(home, [], { ADMIN_TOKEN: ADMIN });
	});
	afterAll(async () => {
		if (server?.child.exitCode === null) server.child.kill("SIGKILL");
		await fs.rm(home, { recursive: true, force: true });
	});

	it("a rotated token and a new user take effect; the old token stops working; the process keeps running", async () => {
		expect(await status(OLD)).toBe(200);
		expect(await status(NEW)).toBe(401);
		const created = await fetch(`${server.url}/api/sessions`, {
			method: "POST",
			headers: { Authorization: `Bearer ${OLD}`, "Content-Type": "application/json" },
			body: "{}",
		});
		const { id } = (await created.json()) as { id: string };

		await fs.writeFile(
			path.join(home, "config.yaml"),
			config([
				{ name: "alice", token: NEW },
				{ name: "carol", token: CAROL },
			]),
		);
		const line = await hangUp(/INFO +config\.reloaded/);
		expect(line).toMatch(/users=3/);
		expect(server.child.exitCode).toBeNull();
		expect(await status(OLD)).toBe(401);
		expect(await status(NEW)).toBe(200);
		expect(await status(CAROL)).toBe(200);
		expect(await status(ADMIN)).toBe(200);
		// Alice is still alice: her session is hers under the new token, and not carol's.
		const mine = await fetch(`${server.url}/api/sessions/${id}`, { headers: { Authorization: `Bearer ${NEW}` } });
		expect(mine.status).toBe(200);
		const theirs = await fetch(`${server.url}/api/sessions/${id}`, { headers: { Authorization: `Bearer ${CAROL}` } });
		expect(theirs.status).toBe(404);
	});

	it("a config that does not load is logged and the settings in force stay", async () => {
		await fs.writeFile(path.join(home, "config.yaml"), config([{ name: "alice", token: "short" }]));
		expect(await hangUp(/ERROR +config\.reload_failed/)).toMatch(
			/reason=".*server\.users\.0\.token: a token needs at least 16 characters.*" kept="the settings in force"/,
		);
		await fs.writeFile(path.join(home, "config.yaml"), config([{ name: "alice", token: "${MISSING_TOKEN}" }]));
		expect(await hangUp(/ERROR +config\.reload_failed/)).toMatch(/MISSING_TOKEN, which is not set/);
		expect(server.child.exitCode).toBeNull();
		expect(await status(NEW)).toBe(200);
		expect(await status(CAROL)).toBe(200);
	});
});
