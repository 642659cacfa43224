import { describe, expect, it } from "vitest";
import { skipBrowser } from "./support/chromium.js";
import { serverAndBrowser, type TestBrowser } from "./support/page-harness.js";
import { createSession, type TestServer } from "./support/test-server.js";

describe.skipIf(skipBrowser)("the web page in Chromium", () => {
	let server: TestServer;
	let browser: TestBrowser;
	const pageErrors: string[] = [];
	serverAndBrowser((started, launched) => {
		server = started;
		browser = launched;
	});

	it("lists sessions, opens one, sends a message and shows the reply streamed over the WebSocket", async () => {
		const older = await createSession(server, { name: "Older session" });
		const target = await createSession(server, { name: "Release planning" });
		const page = await browser.context.newPage();
		page.on("pageerror", (error) => pageErrors.push(error.message));
		page.on("console", (message) => {
			if (message.type() === "error") pageErrors.push(message.text());
		});
		await page.goto(`${server.url}/`);

		const items = page.getByTestId("session-item");
		await expect.poll(() => items.count(), { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
		const names = await page.locator(".session-title").allTextContents();
		expect(names.indexOf("Release planning")).toBeLessThan(names.indexOf("Older session"));
		expect(await page.locator(`[data-id="${older.id}"]`).count()).toBe(1);

		await page.locator(`[data-id="${target.id}"]`).click();
		await page.waitForURL(`**/#/s/${target.id}`);
		await expect.poll(() => page.locator("#session-name").textContent()).toBe("Release planning");

		await page.getByTestId("message-input").fill("When do we ship version two?");
		await page.getByTestId("send").click();

		const reply = page.locator('[data-testid="transcript"] article[data-role="assistant"]:not(.streaming)');
		await reply.first().waitFor({ timeout: 15_000 });
		expect(await reply.first().textContent()).toContain("When do we ship version two?");
		const user = page.locator('[data-testid="transcript"] article[data-role="user"]');
		expect(await user.first().textContent()).toContain("When do we ship version two?");
		expect(await page.getByTestId("streaming").count()).toBe(0);

		// The reply is the one stored: the page shows what the API returns.
		const records = (await (await server.api(`/api/sessions/${target.id}/records`)).json()) as {
			records: Array<{ role?: string; content?: Array<{ text?: string }> }>;
		};
		const stored = records.records.find((record) => record.role === "assistant")?.content?.[0]?.text ?? "";
		expect((await reply.first().textContent()) ?? "").toContain(stored.slice(0, 60));
		expect(pageErrors).toEqual([]);
		await page.close();
	});

	it("streams the reply into the page as deltas arrive", async () => {
		const session = await createSession(server, { name: "Streaming check" });
		const page = await browser.context.newPage();
		await page.goto(`${server.url}/#/s/${session.id}`);
		await expect.poll(() => page.locator("#session-name").textContent()).toBe("Streaming check");
		// Record every text the streaming bubble shows, from inside the page.
		await page.evaluate(`(() => {
			const seen = [];
			window.streamed = seen;
			new MutationObserver(() => {
				const bubble = document.querySelector('[data-testid="streaming"] .text');
				if (bubble && bubble.textContent) seen.push(bubble.textContent);
			}).observe(document.body, { subtree: true, childList: true, characterData: true });
		})()`);
		await page.getByTestId("message-input").fill("Tell me something long enough to stream");
		await page.getByTestId("message-input").press("Enter");
		await page
			.locator('[data-testid="transcript"] article[data-role="assistant"]:not(.streaming)')
			.first()
			.waitFor({ timeout: 15_000 });
		const streamed = (await page.evaluate("window.streamed")) as string[];
		expect(new Set(streamed).size).toBeGreaterThan(1);
		await page.close();
	});

	it("shows the context with its token estimate, a compaction divider, and fork/branch buttons that work", async () => {
		const session = await createSession(server, { name: "Long talk" });
		for (let i = 0; i < 4; i++) {
			await server.api(`/api/sessions/${session.id}/messages?wait=1`, {
				method: "POST",
				json: { content: `point ${i}: ${"detail ".repeat(40)}` },
			});
		}
		await server.api(`/api/sessions/${session.id}/compact`, { method: "POST", json: { keepRecentTokens: 1 } });
		const page = await browser.context.newPage();
		await page.goto(`${server.url}/#/s/${session.id}`);
		await page.getByTestId("compaction").waitFor();
		await page.locator("#tab-context").click();
		await page.getByTestId("token-estimate").waitFor();
		expect(await page.getByTestId("token-estimate").textContent()).toMatch(/≈ [\d.]+k? tokens of/);
		await page.locator("#tab-transcript").click();

		// Branch from the first reply shown, then send: a branch switcher appears.
		const firstReply = page.locator('[data-testid="transcript"] article[data-role="assistant"]').first();
		await firstReply.click();
		await page.locator("#branch").click();
		await page.getByTestId("message-input").fill("a different direction");
		await page.getByTestId("send").click();
		await page.getByTestId("branch-switcher").first().waitFor({ timeout: 15_000 });
		expect(await page.locator("#branch-picker option").count()).toBeGreaterThanOrEqual(2);

		await page.locator("#fork").click();
		await page.waitForURL((url) => !url.hash.includes(session.id) && url.hash.startsWith("#/s/"));
		await expect.poll(() => page.getByTestId("session-item").count()).toBeGreaterThan(3);
		await page.close();
	});

	it("New leaves nothing behind until the first send, focuses the message box, and the first message names the session", async () => {
		const page = await browser.context.newPage();
		await page.goto(`${server.url}/`);
		await expect.poll(() => page.locator("#connection").textContent()).toBe("live");
		const before = ((await (await server.api("/api/sessions?limit=500")).json()) as { sessions: unknown[] }).sessions
			.length;
		await page.locator("#new-session").click();
		await page.waitForURL(/#\/new$/);
		expect(await page.evaluate("document.activeElement && document.activeElement.id")).toBe("message");
		const after = ((await (await server.api("/api/sessions?limit=500")).json()) as { sessions: unknown[] }).sessions;
		expect(after.length).toBe(before);
		await page.keyboard.type("Plan the offsite agenda");
		await page.keyboard.press("Enter");
		await page.waitForURL(/#\/s\/[0-9A-HJKMNP-TV-Z]{26}$/);
		await page.locator('[data-testid="transcript"] article[data-role="assistant"]:not(.streaming)').first().waitFor();
		await page.locator(".session-title", { hasText: "Plan the offsite agenda" }).waitFor({ timeout: 10_000 });
		await page.close();
	});

	it("shows a session created elsewhere without a reload (live list)", async () => {
		const page = await browser.context.newPage();
		await page.goto(`${server.url}/`);
		await page.getByTestId("session-item").first().waitFor();
		await expect.poll(() => page.locator("#connection").textContent()).toBe("live");
		await createSession(server, { name: "Created by another client" });
		await page.getByText("Created by another client").waitFor({ timeout: 10_000 });
		await page.locator("#search").fill("another client");
		await expect.poll(() => page.getByTestId("session-item").count()).toBe(1);
		await page.close();
	});
});

describe.skipIf(skipBrowser)("the web page with a token", () => {
	const token = "browser-test-token-0123456789";
	let server: TestServer;
	let browser: TestBrowser;
	serverAndBrowser(
		(started, launched) => {
			server = started;
			browser = launched;
		},
		{ server: { token } },
	);

	it("asks for the token, then lists sessions and streams replies over an authenticated WebSocket", async () => {
		const created = await server.api("/api/sessions", {
			method: "POST",
			json: { name: "Guarded session" },
			headers: { Authorization: `Bearer ${token}` },
		});
		const { id } = (await created.json()) as { id: string };
		const page = await browser.context.newPage();
		await page.goto(`${server.url}/#/s/${id}`);
		await page.locator("#token-dialog[open]").waitFor();
		await page.locator("#token-input").fill(token);
		await page.locator("#token-form button[type=submit]").click();
		await page.locator(".session-title", { hasText: "Guarded session" }).waitFor({ timeout: 10_000 });
		await expect.poll(() => page.locator("#connection").textContent(), { timeout: 15_000 }).toBe("live");
		await expect.poll(() => page.locator("#session-name").textContent(), { timeout: 15_000 }).toBe("Guarded session");
		await page.getByTestId("message-input").fill("Is this channel authenticated?");
		await page.getByTestId("send").click();
		const reply = page.locator('[data-testid="transcript"] article[data-role="assistant"]:not(.streaming)');
		await reply.first().waitFor({ timeout: 15_000 });
		expect(await reply.first().textContent()).toContain("Is this channel authenticated?");
		await page.close();
	});
});
