import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, requiredChromium, skipBrowser, watchErrors } from "./support/chromium.js";
import { startInstance } from "./support/instance.js";
import { startReverseProxy } from "./support/reverse-proxy.js";

const TOKEN = "alice-token-0123456789abcd";

/** A real server process under /agents with alice as its one user; `trustProxy` as config.yaml says. */
async function startBehindProxy(trustProxy: boolean) {
	const home = await fs.mkdtemp(path.join(os.tmpdir(), "agent-proxy-"));
	await fs.writeFile(
		path.join(home, "config.yaml"),
		[
			"default_model: demo",
			"server:",
			"  base_path: /agents",
			`  trust_proxy: ${trustProxy}`,
			"  users:",
			`    - { name: alice, token: ${TOKEN} }`,
			"",
		].join("\n"),
	);
	const server = await startInstance(home, []);
	const proxy = await startReverseProxy(server.url);
	return { home, server, proxy };
}

type Setup = Awaited<ReturnType<typeof startBehindProxy>>;
const setups: Setup[] = [];
afterAll(async () => {
	for (const { server, proxy, home } of setups) {
		await proxy.close();
		if (server.child.exitCode === null) server.child.kill("SIGKILL");
		await fs.rm(home, { recursive: true, force: true });
	}
});

const post = (base: string, urlPath: string, body: unknown, headers: Record<string, string> = {}) =>
	fetch(`${base}${urlPath}`, {
		method: "POST",
		headers: { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/json", ...headers },
		body: JSON.stringify(body),
	});

describe("behind a proxy that rewrites Host, under a base path (real processes)", () => {
	let trusted: Setup;
	let untrusted: Setup;
	beforeAll(async () => {
		trusted = await startBehindProxy(true);
		untrusted = await startBehindProxy(false);
		setups.push(trusted, untrusted);
	});

	it("serves the API, WebSockets and page only under the base path; the bare base path redirects to it with a slash", async () => {
		const { server, proxy } = trusted;
		expect((await fetch(`${proxy.url}/agents/healthz`)).status).toBe(200);
		expect((await fetch(`${server.url}/api/sessions`, { headers: { Authorization: `Bearer ${TOKEN}` } })).status).toBe(
			404,
		);
		const bare = await fetch(`${proxy.url}/agents`, { redirect: "manual" });
		expect(bare.status).toBe(308);
		expect(bare.headers.get("location")).toBe("/agents/");
		const created = await post(proxy.url, "/agents/api/sessions", {}, { Origin: proxy.url });
		expect(created.status).toBe(201);
		expect(created.headers.get("location")).toMatch(/^\/agents\/api\/sessions\/[0-9A-Z]{26}$/);
	});

	it("with trust_proxy, a browser's POST through the proxy passes the origin check; without it, it is ORIGIN_NOT_ALLOWED", async () => {
		const ok = await post(
			trusted.proxy.url,
			"/agents/api/sessions",
			{ name: "trusted" },
			{ Origin: trusted.proxy.url },
		);
		expect(ok.status).toBe(201);
		const refused = await post(untrusted.proxy.url, "/agents/api/sessions", {}, { Origin: untrusted.proxy.url });
		expect(refused.status).toBe(403);
		expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("ORIGIN_NOT_ALLOWED");
		// Trusting the proxy does not let another site in: the forwarded host is still compared.
		const foreign = await post(trusted.proxy.url, "/agents/api/sessions", {}, { Origin: "http://evil.example" });
		expect(foreign.status).toBe(403);
		// X-Forwarded-Proto counts: an https origin is not the http origin the proxy says the page has.
		const https = await post(
			trusted.proxy.url,
			"/agents/api/sessions",
			{},
			{ Origin: trusted.proxy.url.replace("http:", "https:") },
		);
		expect(https.status).toBe(403);
	});

	it("the client address is the one the proxy appended, never one the client wrote itself; untrusted, the headers are ignored", async () => {
		const wrong = { Authorization: "Bearer wrong-token-0123456789", "X-Forwarded-For": "203.0.113.9" };
		expect((await fetch(`${trusted.proxy.url}/agents/api/sessions`, { headers: wrong })).status).toBe(401);
		const viaProxy = await trusted.server.waitForLog(/auth\.failed/);
		expect(viaProxy).toMatch(/client=127\.0\.0\.1 /);
		// Straight to the server, the peer is the "proxy": what it forwards is taken.
		const from = trusted.server.stderr.length;
		expect(
			(
				await fetch(`${trusted.server.url}/agents/api/sessions`, {
					headers: { ...wrong, "X-Forwarded-For": "198.51.100.7" },
				})
			).status,
		).toBe(401);
		expect(await trusted.server.waitForLog(/auth\.failed/, { from })).toMatch(/client=198\.51\.100\.7 /);
		expect((await fetch(`${untrusted.server.url}/agents/api/sessions`, { headers: wrong })).status).toBe(401);
		expect(await untrusted.server.waitForLog(/auth\.failed/)).toMatch(/client=127\.0\.0\.1 /);
	});

	it.skipIf(skipBrowser)(
		"Chromium loads the page through the proxy under /agents/, signs in, sends and gets the streamed reply, and shows usage per user",
		async () => {
			const browser = await launchChromium(requiredChromium());
			try {
				const page = await browser.context.newPage();
				const errors = watchErrors(page);
				await page.goto(`${trusted.proxy.url}/agents/`);
				// The API asks for a token: the page's dialog takes it and every request goes on with it.
				await page.locator("#token-input").fill(TOKEN);
				await page.locator("#token-form button[type=submit]").click();
				await expect
					.poll(() => page.locator("#connection").getAttribute("class"), { timeout: 15_000 })
					.toContain("live");
				await page.locator("#new-session").click();
				await page.getByTestId("message-input").fill("Hello through the proxy");
				await page.getByTestId("send").click();
				const reply = page.locator('[data-testid="transcript"] article[data-role="assistant"]:not(.streaming)');
				await reply.first().waitFor({ timeout: 15_000 });
				expect(await reply.first().textContent()).toContain("Hello through the proxy");
				expect(page.url()).toMatch(/^http:\/\/localhost:\d+\/agents\/#\/s\/[0-9A-Z]{26}$/);
				await page.locator("#usage").click();
				const table = page.getByTestId("usage-table");
				await table.waitFor();
				expect(await table.locator("tbody th").allTextContents()).toEqual(["alice"]);
				// Nothing failed but the requests before the token was entered: no 403 from the origin
				// check, no asset or socket outside /agents/.
				expect(errors.filter((error) => !/401|HTTP Authentication failed/.test(error))).toEqual([]);
			} finally {
				await browser.close();
			}
		},
	);
});
