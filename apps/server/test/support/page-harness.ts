import { afterAll, beforeAll } from "vitest";
import { launchChromium, requiredChromium } from "./chromium.js";
import { closeTestServers, startTestServer, type TestServer } from "./test-server.js";

export type TestBrowser = Awaited<ReturnType<typeof launchChromium>>;

/**
 * What every browser test file starts with: a real server and a headless Chromium before its
 * tests, both closed after them. `ready` receives them (the file keeps them in its own variables).
 */
export function serverAndBrowser(
	ready: (server: TestServer, browser: TestBrowser) => void,
	options: Parameters<typeof startTestServer>[0] = {},
): void {
	let browser: TestBrowser | undefined;
	beforeAll(async () => {
		const server = await startTestServer(options);
		browser = await launchChromium(requiredChromium());
		ready(server, browser);
	}, 60_000);
	afterAll(async () => {
		await browser?.close();
		await closeTestServers();
	});
}
