import { describe, expect, it } from "vitest";
import { skipBrowser, watchErrors } from "./support/chromium.js";
import { serverAndBrowser, type TestBrowser } from "./support/page-harness.js";
import { sessionWithMessages } from "./support/page-session.js";
import { createSession, type TestServer } from "./support/test-server.js";

// A slow demo model, so a reply can be stopped while it streams.
process.env.AGENT_DEMO_TOKENS_PER_SECOND = "25";

describe.skipIf(skipBrowser)("the page says what happens, in words, and then gets out of the way", () => {
	let server: TestServer;
	let browser: TestBrowser;
	serverAndBrowser((started, launched) => {
		server = started;
		browser = launched;
	});

	it("a notice that reports fades by itself; one that reports a failure stays until closed", async () => {
		const session = await sessionWithMessages(server, 4, "Notices");
		const page = await browser.context.newPage();
		await page.goto(`${server.url}/#/s/${session.id}`);
		const first = page.locator('[data-testid="transcript"] article[data-role="assistant"]').first();
		await first.click();
		await page.locator("#branch").click();
		const notice = page.locator("#notice");
		await expect.poll(() => notice.textContent()).toMatch(/^The next message continues from #2/);
		await expect.poll(() => notice.isVisible(), { timeout: 10_000 }).toBe(false);

		// A failure: no answer from the server at all.
		await page.route("**/api/sessions/*/messages", (route) => route.abort("connectionrefused"));
		await page.getByTestId("message-input").fill("are you there?");
		await page.getByTestId("message-input").press("Enter");
		await expect
			.poll(() => notice.textContent())
			.toBe("The server cannot be reached. Check that it is still running; the page reconnects on its own.");
		await page.waitForTimeout(7000);
		expect(await notice.isVisible()).toBe(true);
		await page.getByRole("button", { name: "Close the notice" }).click();
		expect(await notice.isVisible()).toBe(false);
		expect(await page.getByTestId("message-input").inputValue()).toBe("are you there?");
		await page.close();
	});

	it("a reply the provider refused says which key to check, in words; the raw error stays in its tooltip", async () => {
		const session = await createSession(server, { name: "Refused" });
		const raw = '401 {"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}';
		await server.runtime.store.append(session.id, [
			{ recordType: "message", role: "user", content: [{ type: "text", text: "hello?" }] },
			{
				recordType: "message",
				role: "assistant",
				content: [],
				provider: "anthropic",
				model: "claude-sonnet-4-5",
				stopReason: "error",
				errorMessage: raw,
			},
		]);
		const page = await browser.context.newPage();
		await page.goto(`${server.url}/#/s/${session.id}`);
		const error = page.locator('[data-testid="transcript"] .error-text');
		await error.waitFor();
		expect(await error.textContent()).toMatch(
			/^The provider refused the API key for anthropic: check ANTHROPIC_API_KEY on the server .*or choose the demo model\.$/,
		);
		expect(await error.getAttribute("title")).toBe(raw);
		await page.close();
	});

	it("a reply stopped on request shows as stopped, not as a failure", async () => {
		const session = await createSession(server, { name: "Stopped on purpose" });
		const page = await browser.context.newPage();
		const errors = watchErrors(page);
		await page.goto(`${server.url}/#/s/${session.id}`);
		await expect.poll(() => page.locator("#session-name").textContent()).toBe("Stopped on purpose");
		await page.getByTestId("message-input").fill("talk for a while");
		await page.getByTestId("message-input").press("Enter");
		await expect.poll(() => page.locator("article.streaming .text").textContent()).not.toBe("");
		await page.getByTestId("stop").click();
		await expect
			.poll(() => page.locator("#notice").textContent())
			.toBe("Stopped: what the reply had written so far is kept.");
		expect(await page.locator("#notice").getAttribute("data-kind")).toBe("info");
		const reply = page.locator('[data-testid="transcript"] article[data-role="assistant"]:not(.streaming)');
		await reply.waitFor();
		expect(await reply.getByTestId("stopped").textContent()).toMatch(/^Stopped/);
		expect(await reply.locator(".error-text").count()).toBe(0);
		expect(await reply.textContent()).not.toMatch(/Request was aborted/);
		expect(await reply.getByTestId("retry").textContent()).toBe("Regenerate");
		expect(errors).toEqual([]);
		await page.close();
	});
});
