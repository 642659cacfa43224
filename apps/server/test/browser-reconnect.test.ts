import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SLOW_READER_CLOSE } from "../src/send-budget.js";
import { chromiumPath, launchChromium } from "./support/chromium.js";
import { closeTestServers, createSession, startTestServer, type TestServer } from "./support/test-server.js";

const executablePath = chromiumPath();

/** Run in the page before its own script: records the WebSockets it opens (paths) and the close codes they see. */
const RECORD_SOCKETS = `
	window.sockets = { opened: [], codes: [] };
	const Native = window.WebSocket;
	window.WebSocket = class extends Native {
		constructor(url, protocols) {
			super(url, protocols);
			window.sockets.opened.push(new URL(String(url)).pathname);
			this.addEventListener("close", (event) => window.sockets.codes.push(event.code));
		}
	};
`;
const skipBrowser = !executablePath && !process.env.CI;

describe.skipIf(skipBrowser)("the page after the server dropped its socket for falling behind", () => {
	let server: TestServer;
	let browser: Awaited<ReturnType<typeof launchChromium>>;

	beforeAll(async () => {
		if (!executablePath) throw new Error("CI needs Chromium for the browser tests; install Debian's chromium");
		server = await startTestServer({
			configYaml: "compaction:\n  enabled: false\n",
			// A 6 MiB record is still queued when the next event of the same tick comes: over this cap.
			server: { bodyLimitBytes: 8 * 1024 * 1024, socketBudget: { perSocketBytes: 64 * 1024 } },
		});
		browser = await launchChromium(executablePath);
	}, 60_000);
	afterAll(async () => {
		await browser?.close();
		await closeTestServers();
	});

	it(`reconnects after the server drops its socket (close code ${SLOW_READER_CLOSE}, or 1006 when cut before the code got through)`, async () => {
		const session = await createSession(server, { name: "Dropped and back" });
		const page = await browser.context.newPage();
		// Records the page's WebSockets: the paths opened and the close codes seen.
		await page.addInitScript({ content: RECORD_SOCKETS });
		await page.goto(`${server.url}/#/s/${session.id}`);
		await expect.poll(() => page.locator("#session-name").textContent()).toBe("Dropped and back");
		const eventsPath = `/api/sessions/${session.id}/events`;
		const sockets = () => page.evaluate("window.sockets") as Promise<{ opened: string[]; codes: number[] }>;
		await expect.poll(async () => (await sockets()).opened.filter((p) => p === eventsPath).length).toBe(1);

		const big = await server.api(`/api/sessions/${session.id}/messages?wait=1`, {
			method: "POST",
			json: { content: `big ${"x".repeat(6 * 1024 * 1024)}` },
		});
		expect(big.status).toBe(200);
		await expect
			.poll(async () => (await sockets()).codes.filter((code) => code === SLOW_READER_CLOSE || code === 1006).length, {
				timeout: 20_000,
			})
			.toBeGreaterThan(0);
		// The page opens its session socket again (after its backoff) instead of giving up.
		await expect
			.poll(async () => (await sockets()).opened.filter((p) => p === eventsPath).length, { timeout: 20_000 })
			.toBe(2);
		await page.close();
	});
});
