import { describe, expect, it } from "vitest";
import { skipBrowser, watchErrors } from "./support/chromium.js";
import { serverAndBrowser, type TestBrowser } from "./support/page-harness.js";
import { sessionWithMessages } from "./support/page-session.js";
import { createSession, type TestServer } from "./support/test-server.js";

describe.skipIf(skipBrowser)("the web page with long sessions and many sessions", () => {
	let server: TestServer;
	let browser: TestBrowser;
	serverAndBrowser((started, launched) => {
		server = started;
		browser = launched;
	});

	it("opens a long session at its latest message with few elements, loads the older ones behind, and jumps back to the latest", async () => {
		const metadata = await sessionWithMessages(server, 3000);
		const page = await browser.context.newPage();
		const errors = watchErrors(page);
		await page.goto(`${server.url}/#/s/${metadata.id}`);
		const transcript = page.getByTestId("transcript");
		await transcript.locator(`[data-seq="${metadata.lastSeq}"]`).waitFor();
		expect(await transcript.locator(`[data-seq="${metadata.lastSeq}"]`).isVisible()).toBe(true);
		expect(await transcript.locator('[data-seq="1"]').count()).toBe(0);
		expect(await page.evaluate("document.getElementsByTagName('*').length")).toBeLessThan(3000);
		await expect.poll(() => transcript.getAttribute("data-complete"), { timeout: 20_000 }).toBe("true");

		// Scrolled to the top, the first message is there (it came with the older pages); the page stays small.
		for (let i = 0; i < 40 && (await transcript.locator('[data-seq="1"]').count()) === 0; i++) {
			await page.evaluate(`document.querySelector('[data-testid="transcript"]').scrollTop = 0`);
			await page.waitForTimeout(50);
		}
		await transcript.locator('[data-seq="1"]').waitFor();
		expect(await page.evaluate("document.getElementsByTagName('*').length")).toBeLessThan(3000);
		await page.getByTestId("jump-latest").click();
		await transcript.locator(`[data-seq="${metadata.lastSeq}"]`).waitFor();
		await expect.poll(() => page.getByTestId("jump-latest").isHidden()).toBe(true);

		// A new message is added as a row; the rows already drawn stay the same elements.
		await page.evaluate(
			`window.__kept = document.querySelector('[data-testid="transcript"] [data-seq="${metadata.lastSeq}"]')`,
		);
		await page.getByTestId("message-input").fill("one more");
		await page.getByTestId("message-input").press("Enter");
		await transcript.locator(`[data-seq="${metadata.lastSeq + 2}"]`).waitFor({ timeout: 15_000 });
		expect(
			await page.evaluate(
				`window.__kept === document.querySelector('[data-testid="transcript"] [data-seq="${metadata.lastSeq}"]')`,
			),
		).toBe(true);
		expect(errors).toEqual([]);
		await page.close();
	});

	it("scrolls a list of hundreds of sessions to its end without a Load more button; full dates on hover", async () => {
		for (let i = 0; i < 260; i++) await createSession(server, { name: `listed ${String(i).padStart(3, "0")}` });
		const page = await browser.context.newPage();
		await page.goto(`${server.url}/`);
		await page.getByTestId("session-item").first().waitFor();
		const oldest = page.locator(".title-text", { hasText: "listed 000" });
		for (let i = 0; i < 60 && (await oldest.count()) === 0; i++) {
			await page.evaluate(
				`(() => { const list = document.querySelector('[data-testid="session-list"]'); list.scrollTop += list.clientHeight * 2; })()`,
			);
			await page.waitForTimeout(60);
		}
		await oldest.waitFor();
		expect(await page.getByText("Load more").count()).toBe(0);
		expect(await page.getByTestId("session-item").count()).toBeLessThan(100);
		const title = await page.locator(".session-sub time").first().getAttribute("title");
		expect(title).toMatch(/last activity .*\d{4}.*\ncreated /s);
		await page.close();
	});
});
