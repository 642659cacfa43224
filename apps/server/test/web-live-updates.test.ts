import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { skipBrowser, watchErrors } from "./support/chromium.js";
import { serverAndBrowser, type TestBrowser } from "./support/page-harness.js";
import { sessionWithMessages } from "./support/page-session.js";
import { createSession, type TestServer } from "./support/test-server.js";

// A slow demo model: a reply takes several seconds to write, so a page can open in the middle of one.
process.env.AGENT_DEMO_TOKENS_PER_SECOND = "12";

const run = promisify(execFile);

/** Another process writing into the store: appends `texts` as user messages, or creates a session named `name`. */
async function writeFromAnotherProcess(
	home: string,
	action: { append?: { id: string; texts: string[] }; create?: string },
) {
	const script = `
		import { createFileStore } from "@agent/session-fs";
		const store = createFileStore({ home: process.env.STORE_HOME });
		const action = JSON.parse(process.env.ACTION);
		if (action.append) {
			await store.append(action.append.id, action.append.texts.map((text) => ({
				recordType: "message", role: "user", content: [{ type: "text", text }],
			})));
		}
		if (action.create) await store.create({ name: action.create });
	`;
	await run(process.execPath, ["--input-type=module", "-e", script], {
		cwd: new URL("..", import.meta.url).pathname,
		env: { ...process.env, STORE_HOME: home, ACTION: JSON.stringify(action) },
	});
}

describe.skipIf(skipBrowser)("the web page shows what happens while it was away or elsewhere", () => {
	let server: TestServer;
	let browser: TestBrowser;
	serverAndBrowser((started, launched) => {
		server = started;
		browser = launched;
	});

	it("a page opened (or reloaded) during a turn shows the partial reply and Stop at once, and Stop works", async () => {
		const session = await createSession(server, { name: "Long turn" });
		const first = await browser.context.newPage();
		await first.goto(`${server.url}/#/s/${session.id}`);
		await expect.poll(() => first.locator("#session-name").textContent()).toBe("Long turn");
		await first.getByTestId("message-input").fill(`tell me a long story about ${"dragons and ".repeat(12)}`);
		await first.getByTestId("message-input").press("Enter");
		await expect.poll(() => first.locator("article.streaming .text").textContent()).not.toBe("");

		const second = await browser.context.newPage();
		const errors = watchErrors(second);
		await second.goto(`${server.url}/#/s/${session.id}`);
		await expect
			.poll(() => second.locator("article.streaming .text").textContent(), { timeout: 3000 })
			.toMatch(/demo model/);
		expect(await second.getByTestId("stop").isVisible()).toBe(true);

		await first.reload();
		await expect
			.poll(() => first.locator("article.streaming .text").textContent(), { timeout: 3000 })
			.toMatch(/demo model/);
		expect(await first.getByTestId("stop").isVisible()).toBe(true);

		await second.getByTestId("stop").click();
		await second.getByTestId("stop").waitFor({ state: "hidden" });
		await server.runtime.idle();
		const outcomes = [];
		for await (const record of server.runtime.store.read(session.id)) {
			if (record.recordType === "turn") outcomes.push(record.outcome);
		}
		expect(outcomes).toEqual(["cancelled"]);
		expect(errors).toEqual([]);
		await first.close();
		await second.close();
	});

	it("records another process appends show live in the open session and in the list, and so does a session it creates", async () => {
		const session = await sessionWithMessages(server, 2, "Watched from the page");
		await sessionWithMessages(server, 2, "Newer session");
		const page = await browser.context.newPage();
		const errors = watchErrors(page);
		await page.goto(`${server.url}/#/s/${session.id}`);
		await page.locator('[data-testid="transcript"] article[data-role="assistant"]').first().waitFor();
		await expect.poll(() => page.locator("#connection").textContent()).toBe("live");

		await writeFromAnotherProcess(server.home, { append: { id: session.id, texts: ["written by a terminal"] } });
		await page
			.locator('[data-testid="transcript"] article[data-role="user"]', { hasText: "written by a terminal" })
			.waitFor({ timeout: 5000 });
		// The list moves the session to the top with its new count.
		await expect
			.poll(() => page.getByTestId("session-item").first().getAttribute("data-id"), { timeout: 5000 })
			.toBe(session.id);
		expect(await page.getByTestId("session-item").first().textContent()).toContain("3 messages");

		await writeFromAnotherProcess(server.home, { create: "Made in a terminal" });
		await page.locator(".session-title", { hasText: "Made in a terminal" }).waitFor({ timeout: 5000 });
		expect(errors).toEqual([]);
		await page.close();
	});
});
