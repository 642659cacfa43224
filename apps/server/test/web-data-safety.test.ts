import { SessionTree, type StoredRecord } from "@agent/session-format";
import { describe, expect, it } from "vitest";
import { skipBrowser, watchErrors } from "./support/chromium.js";
import { serverAndBrowser, type TestBrowser } from "./support/page-harness.js";
import { sessionWithMessages } from "./support/page-session.js";
import { createSession, type TestServer } from "./support/test-server.js";

const replies = '[data-testid="transcript"] article[data-role="assistant"]:not(.streaming)';

describe.skipIf(skipBrowser)("the web page never changes data the user did not ask it to", () => {
	let server: TestServer;
	let browser: TestBrowser;
	serverAndBrowser((started, launched) => {
		server = started;
		browser = launched;
	});

	async function records(id: string): Promise<StoredRecord[]> {
		const out: StoredRecord[] = [];
		for await (const record of server.runtime.store.read(id)) out.push(record);
		return out;
	}

	async function say(id: string, content: string) {
		const response = await server.api(`/api/sessions/${id}/messages?wait=1`, { method: "POST", json: { content } });
		expect(response.status).toBe(200);
	}

	it("a rename committed with Enter is saved once, and clicking elsewhere afterwards re-saves nothing", async () => {
		const session = await sessionWithMessages(server, 2, "Old name");
		const page = await browser.context.newPage();
		const errors = watchErrors(page);
		await page.goto(`${server.url}/#/s/${session.id}`);
		await expect.poll(() => page.locator("#session-name").textContent()).toBe("Old name");
		await page.locator("#session-name").click();
		const field = page.locator("input.rename");
		await field.waitFor();
		await field.fill("New name");
		await field.press("Enter");
		await expect.poll(() => page.locator("#session-name").textContent()).toBe("New name");
		// Clicking elsewhere (which blurs whatever has the focus) must not bring the old name back.
		await page.locator("#session-meta").click();
		await page.locator(".session-title", { hasText: "New name" }).waitFor();
		await page.waitForTimeout(300);
		expect(await page.locator("input.rename").count()).toBe(0);
		expect((await server.runtime.metadata(session.id)).name).toBe("New name");
		const names = (await records(session.id)).flatMap((r) => (r.recordType === "session_info" ? [r.name] : []));
		expect(names).toEqual(["New name"]);
		expect(errors).toEqual([]);
		await page.close();
	});

	it("sending while another branch is on screen continues that branch, and the page says so", async () => {
		const session = await createSession(server, { name: "Two branches" });
		await say(session.id, "first question");
		await say(session.id, "second question");
		const firstReply = (await records(session.id)).find(
			(r) => r.recordType === "message" && r.role === "assistant",
		) as StoredRecord;
		await server.api(`/api/sessions/${session.id}/branch`, { method: "POST", json: { atSeq: firstReply.seq } });
		await say(session.id, "another direction");

		const page = await browser.context.newPage();
		const errors = watchErrors(page);
		await page.goto(`${server.url}/#/s/${session.id}`);
		await page.locator(replies, { hasText: "another direction" }).waitFor();
		// "‹": the older branch, the one with the second question.
		await page.getByTestId("branch-switcher").getByRole("button", { name: "previous branch" }).click();
		await page
			.locator('[data-testid="transcript"] article[data-role="user"]', { hasText: "second question" })
			.waitFor();
		await page.getByTestId("message-input").fill("continue the second");
		await page.getByTestId("message-input").press("Enter");
		await page.locator(replies, { hasText: "continue the second" }).waitFor({ timeout: 15_000 });

		const log = await records(session.id);
		const sent = log.find(
			(r) =>
				r.recordType === "message" && r.role === "user" && JSON.stringify(r.content).includes("continue the second"),
		) as StoredRecord;
		const secondReply = log.find(
			(r) =>
				r.recordType === "message" && r.role === "assistant" && JSON.stringify(r.content).includes("second question"),
		) as StoredRecord;
		// The model got the branch on screen: the message continues the reply to the second question.
		const context = (await server.runtime.open(session.id)).context.messages.map((m) => JSON.stringify(m.content));
		expect(context.some((text) => text.includes("second question"))).toBe(true);
		expect(context.some((text) => text.includes("another direction"))).toBe(false);
		expect(new SessionTree(log).parentOf(sent.seq)).toBe(secondReply.seq);
		// The transcript still shows the branch it was on, with the new exchange at its end.
		expect(
			await page
				.locator('[data-testid="transcript"] article[data-role="user"]', { hasText: "second question" })
				.count(),
		).toBe(1);
		expect(
			await page
				.locator('[data-testid="transcript"] article[data-role="user"]', { hasText: "another direction" })
				.count(),
		).toBe(0);
		expect(await page.locator("#notice").textContent()).toMatch(/branch on screen/i);
		expect(errors).toEqual([]);
		await page.close();
	});

	it("after a compaction started from the page, the list holds every session once, the compacted one first", async () => {
		const compacted = await createSession(server, { name: "To compact" });
		for (let i = 0; i < 3; i++) await say(compacted.id, `point ${i}: ${"detail ".repeat(40)}`);
		const others = [];
		for (const name of ["Newer one", "Newer two", "Newer three"]) {
			others.push(await sessionWithMessages(server, 2, name));
		}
		const page = await browser.context.newPage();
		const errors = watchErrors(page);
		await page.goto(`${server.url}/#/s/${compacted.id}`);
		await page.locator(replies).first().waitFor();
		await expect.poll(() => page.locator("#connection").textContent()).toBe("live");
		await page.locator("#compact").click();
		await page.locator("#compact-keep").fill("1");
		await page.locator("#compact-run").click();
		await page.getByTestId("compaction").waitFor({ timeout: 20_000 });
		await page.waitForTimeout(500);
		const ids = await page
			.getByTestId("session-item")
			.evaluateAll((items) => items.map((item) => item.getAttribute("data-id")));
		const titles = await page
			.getByTestId("session-item")
			.evaluateAll((items) => items.map((item) => item.querySelector(".title-text")?.textContent));
		expect(new Set(ids).size).toBe(ids.length);
		expect(new Set(titles).size).toBe(titles.length);
		expect(ids[0]).toBe(compacted.id);
		expect(titles[0]).toBe("To compact");
		for (const other of others) expect(ids).toContain(other.id);
		expect(errors).toEqual([]);
		await page.close();
	});
});
