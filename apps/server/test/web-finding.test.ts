import type { StoredRecord } from "@agent/session-format";
import { describe, expect, it } from "vitest";
import { skipBrowser, watchErrors } from "./support/chromium.js";
import { serverAndBrowser, type TestBrowser } from "./support/page-harness.js";
import { sessionWithMessages } from "./support/page-session.js";
import { createSession, type TestServer } from "./support/test-server.js";

const transcript = '[data-testid="transcript"]';

describe.skipIf(skipBrowser)("finding things and doing them, with a mouse or a keyboard", () => {
	let server: TestServer;
	let browser: TestBrowser;
	serverAndBrowser((started, launched) => {
		server = started;
		browser = launched;
	});

	it("a message's actions show on hover and on focus; a button that cannot act says why", async () => {
		const session = await sessionWithMessages(server, 6, "Hover me");
		const page = await browser.context.newPage();
		await page.goto(`${server.url}/#/s/${session.id}`);
		const rows = page.locator(`${transcript} .row:has(article[data-role="user"])`);
		await rows.first().waitFor();
		const actionsOf = (index: number) => rows.nth(index).getByTestId("message-actions");
		expect(await actionsOf(0).isVisible()).toBe(false);
		await rows.nth(0).locator("article").hover();
		await expect.poll(() => actionsOf(0).isVisible()).toBe(true);
		await page.mouse.move(0, 0);
		await rows.nth(1).locator("article").focus();
		await expect.poll(() => actionsOf(1).isVisible()).toBe(true);
		await page.keyboard.press("Tab");
		expect(await page.evaluate("document.activeElement.textContent")).toBe("Edit & resend");

		const branch = page.locator("#branch");
		expect(await branch.getAttribute("aria-disabled")).toBe("true");
		expect(await branch.getAttribute("title")).toMatch(/^Select an earlier message first/);
		// Playwright takes aria-disabled for disabled; a person can press it, and is told why.
		await branch.click({ force: true });
		await expect.poll(() => page.locator("#notice").textContent()).toMatch(/^Select an earlier message first/);
		await page.close();
	});

	it("code blocks have their language and a Copy button; a tool call and its result are one unit", async () => {
		const session = await createSession(server, { name: "Code and tools" });
		await server.runtime.store.append(session.id, [
			{ recordType: "message", role: "user", content: [{ type: "text", text: "list the files" }] },
			{
				recordType: "message",
				role: "assistant",
				content: [
					{ type: "text", text: "Here:\n\n```ts\nconst files = await list();\n```" },
					{ type: "toolCall", id: "call-1", name: "bash", arguments: { command: "ls -la" } },
				],
			},
			{
				recordType: "message",
				role: "toolResult",
				toolCallId: "call-1",
				toolName: "bash",
				isError: false,
				content: [{ type: "text", text: "README.md\nsrc/" }],
			},
		]);
		await browser.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
		const page = await browser.context.newPage();
		const errors = watchErrors(page);
		await page.goto(`${server.url}/#/s/${session.id}`);
		const code = page.locator(`${transcript} .code-block`).first();
		await code.waitFor();
		expect(await code.locator(".code-lang").textContent()).toBe("ts");
		await code.getByRole("button", { name: "Copy" }).click();
		await expect.poll(() => page.evaluate("navigator.clipboard.readText()")).toBe("const files = await list();");
		expect(await page.locator("#notice").textContent()).toBe("Code copied.");

		expect(await page.locator(`${transcript} article[data-role="toolResult"]`).count()).toBe(0);
		const call = page.getByTestId("tool-call");
		expect(await call.count()).toBe(1);
		expect(await call.locator("summary").textContent()).toContain("done");
		await call.locator("summary").click();
		expect(await call.getByTestId("tool-output").textContent()).toBe("README.md\nsrc/");
		// The arguments once: the one-line preview in the summary gives way to them when the call is open.
		expect(await call.locator(".tool-args").isVisible()).toBe(false);
		expect(await call.locator("pre").first().textContent()).toContain('"command": "ls -la"');
		expect(errors).toEqual([]);
		await page.close();
	});

	it("a compaction's divider sits above the first message it kept; the messages above it are dimmed", async () => {
		const session = await createSession(server, { name: "Compacted" });
		for (let i = 0; i < 4; i++) {
			await server.api(`/api/sessions/${session.id}/messages?wait=1`, {
				method: "POST",
				json: { content: `point ${i}: ${"detail ".repeat(40)}` },
			});
		}
		await server.api(`/api/sessions/${session.id}/compact`, { method: "POST", json: { keepRecentTokens: 200 } });
		const records: StoredRecord[] = [];
		for await (const record of server.runtime.store.read(session.id)) records.push(record);
		const compaction = records.find((r) => r.recordType === "compaction") as Extract<
			StoredRecord,
			{ recordType: "compaction" }
		>;
		const page = await browser.context.newPage();
		await page.goto(`${server.url}/#/s/${session.id}`);
		await page.getByTestId("compaction").waitFor();
		const order = await page.locator(`${transcript} .virtual-row`).evaluateAll((rows) =>
			rows.map((row) => ({
				seq: Number(row.getAttribute("data-seq")),
				summarized: row.classList.contains("summarized"),
				divider: !!row.querySelector("[data-testid=compaction]"),
			})),
		);
		const at = order.findIndex((row) => row.divider);
		expect(at).toBeGreaterThan(0);
		expect(order[at + 1]?.seq).toBe(compaction.firstKeptSeq);
		for (const row of order.slice(0, at)) if (row.seq) expect(row.summarized).toBe(true);
		for (const row of order.slice(at + 1)) expect(row.summarized).toBe(false);
		expect(await page.getByTestId("compaction").textContent()).toMatch(/the messages above.*from here on/);
		await page.close();
	});

	it("the Context tab offers Compact once the context fills the model's window", async () => {
		const session = await createSession(server, { name: "Full" });
		await server.runtime.store.append(
			session.id,
			// Many messages (one huge block would be cut to fit, not counted whole).
			Array.from({ length: 40 }, (_, i) => ({
				recordType: "message" as const,
				role: i % 2 === 0 ? ("user" as const) : ("assistant" as const),
				content: [{ type: "text" as const, text: `${"many words here ".repeat(250)}` }],
			})),
		);
		const page = await browser.context.newPage();
		await page.goto(`${server.url}/#/s/${session.id}`);
		await page.locator("#tab-context").click();
		await page.getByTestId("token-estimate").waitFor();
		expect(await page.getByTestId("token-estimate").textContent()).toMatch(/of 32k \(\d{2,3}%\)/);
		await page.getByTestId("context-compact").click();
		await page.locator("#compact-dialog[open]").waitFor();
		await page.close();
	});

	it("opening a session puts the focus in the message box; the transcript is one Tab stop with arrows inside; Shift+Esc comes back", async () => {
		const session = await sessionWithMessages(server, 120, "Keyboard first");
		const page = await browser.context.newPage();
		await page.goto(`${server.url}/`);
		await page.locator(`[data-id="${session.id}"]`).waitFor();
		await page.locator(`[data-id="${session.id}"]`).focus();
		await page.keyboard.press("Enter");
		await page.locator(`${transcript} article[data-role="assistant"]`).first().waitFor();
		await expect.poll(() => page.evaluate("document.activeElement.id"), { timeout: 5000 }).toBe("message");

		// From the title, Tab reaches the message box in a few steps, not one per message.
		await page.locator("#session-name").focus();
		let tabs = 0;
		for (; tabs < 40; tabs++) {
			if ((await page.evaluate("document.activeElement.id")) === "message") break;
			await page.keyboard.press("Tab");
		}
		expect(tabs).toBeLessThanOrEqual(16);

		// Shift+Tab back into the transcript lands on the latest message; Up moves to the one before.
		await page.keyboard.press("Shift+Tab");
		let label = (await page.evaluate("document.activeElement.getAttribute('aria-label')")) as string | null;
		for (let i = 0; i < 5 && !label?.includes("message #"); i++) {
			await page.keyboard.press("Shift+Tab");
			label = (await page.evaluate("document.activeElement.getAttribute('aria-label')")) as string | null;
		}
		expect(label).toContain(`#${session.lastSeq}`);
		await page.keyboard.press("ArrowUp");
		await expect
			.poll(() => page.evaluate("document.activeElement.getAttribute('aria-label')"))
			.toContain(`#${session.lastSeq - 1}`);
		await page.keyboard.press("Shift+Escape");
		expect(await page.evaluate("document.activeElement.id")).toBe("message");
		await page.close();
	});
});
