import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { skipBrowser, watchErrors } from "./support/chromium.js";
import { serverAndBrowser, type TestBrowser } from "./support/page-harness.js";
import { createSession, type TestServer } from "./support/test-server.js";

// A slow demo model, so the page can stop a reply while it streams (read when the model registers).
process.env.AGENT_DEMO_TOKENS_PER_SECOND = "25";

describe.skipIf(skipBrowser)("turns the page's user controls", () => {
	let server: TestServer;
	let browser: TestBrowser;
	serverAndBrowser((started, launched) => {
		server = started;
		browser = launched;
	});

	function sessionsOnDisk(): string[] {
		try {
			return fs.readdirSync(path.join(server.home, "sessions")).filter((name) => !name.startsWith("."));
		} catch {
			return [];
		}
	}

	it("New saves nothing until a reply; stopping the first reply leaves nothing and gives the text back", async () => {
		const before = sessionsOnDisk();
		const page = await browser.context.newPage();
		const errors = watchErrors(page);
		await page.goto(`${server.url}/#/new`);
		await page.getByTestId("message-input").fill("a question I take back");
		expect(sessionsOnDisk()).toEqual(before);
		await page.getByTestId("send").click();
		await page.getByTestId("stop").waitFor({ state: "visible" });
		await page.locator("article.streaming").waitFor();
		await page.getByTestId("stop").click();
		await page.waitForURL(/#\/new$/);
		await expect.poll(() => page.getByTestId("message-input").inputValue()).toBe("a question I take back");
		expect(await page.locator("#notice").textContent()).toMatch(/nothing was saved/);
		await server.runtime.idle();
		expect(sessionsOnDisk()).toEqual(before);
		expect(errors).toEqual([]);
		await page.close();
	});

	it("Esc stops a running reply; the session keeps what was written and goes on", async () => {
		const session = await createSession(server, { name: "Stoppable" });
		const page = await browser.context.newPage();
		await page.goto(`${server.url}/#/s/${session.id}`);
		await expect.poll(() => page.locator("#session-name").textContent()).toBe("Stoppable");
		await page.getByTestId("message-input").fill("talk for a while");
		await page.getByTestId("send").click();
		await page.locator("article.streaming").waitFor();
		// The row appears when the turn starts, before it holds the lease: stopped then, a turn writes
		// nothing (by design). Stop it once the reply is streaming, i.e. the user's message is written.
		await expect.poll(() => page.locator("article.streaming .text").textContent()).not.toBe("");
		await page.keyboard.press("Escape");
		await expect.poll(() => page.locator("#notice").textContent()).toMatch(/Stopped/);
		await page.getByTestId("stop").waitFor({ state: "hidden" });
		await server.runtime.idle();
		const records = [];
		for await (const record of server.runtime.store.read(session.id)) records.push(record);
		expect(records.flatMap((r) => (r.recordType === "turn" ? [r.outcome] : []))).toEqual(["cancelled"]);
		// The header shows the session's active time (its turns' durations).
		await expect.poll(() => page.getByTestId("session-meta").textContent()).toMatch(/active \d+ s/);
		// The offline demo model (recorded "demo/demo") is named as people call it, in the header and the list.
		expect(await page.getByTestId("session-meta").textContent()).toMatch(/^demo · /);
		expect(await page.getByTestId("session-item").filter({ hasText: "Stoppable" }).textContent()).toContain(
			" · demo · ",
		);
		await page.close();
	});

	it("Branch with summarize ticked writes a summary of the branch left", async () => {
		const session = await createSession(server, { name: "Two ways" });
		for (const content of ["first way", "second way"]) {
			await server.api(`/api/sessions/${session.id}/messages?wait=1`, { method: "POST", json: { content } });
		}
		const page = await browser.context.newPage();
		await page.goto(`${server.url}/#/s/${session.id}`);
		const firstReply = page.locator('[data-testid="transcript"] article[data-role="assistant"]').first();
		await firstReply.waitFor();
		await firstReply.click();
		await page.getByTestId("branch-summarize").check();
		await page.locator("#branch").click();
		await expect
			.poll(() => page.locator("#notice").textContent(), { timeout: 30_000 })
			.toMatch(/summary of the branch/);
		const records = [];
		for await (const record of server.runtime.store.read(session.id)) records.push(record);
		const summary = records.find((r) => r.recordType === "branch_summary");
		expect(summary?.parentSeq).toBe(2);
		await page.close();
	});
});
