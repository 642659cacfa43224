import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, requiredChromium, skipBrowser } from "./support/chromium.js";
import type { TestBrowser } from "./support/page-harness.js";
import { sessionWithMessages } from "./support/page-session.js";
import { closeTestServers, createSession, startTestServer, type TestServer } from "./support/test-server.js";

const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };

/** The height of what a finger presses, in CSS pixels. */
async function heightOf(page: Page, selector: string): Promise<number> {
	const box = await page.locator(selector).first().boundingBox();
	if (!box) throw new Error(`${selector} is not on screen`);
	return box.height;
}

describe.skipIf(skipBrowser)("the page on a phone (390×844, a touch screen)", () => {
	let server: TestServer;
	let phone: TestBrowser;
	beforeAll(async () => {
		server = await startTestServer();
		phone = await launchChromium(requiredChromium(), PHONE);
	}, 60_000);
	afterAll(async () => {
		await phone?.close();
		await closeTestServers();
	});

	it("the header is small (its actions are a menu), and what a finger presses is at least 44 px tall", async () => {
		const session = await sessionWithMessages(
			server,
			6,
			"A session with a long name that has to fit on a phone screen",
		);
		const page = await phone.context.newPage();
		await page.goto(`${server.url}/`);
		await page.getByTestId("session-item").first().waitFor();
		for (const selector of ["#new-session", "#search", ".search .toggle"]) {
			expect(await heightOf(page, selector), selector).toBeGreaterThanOrEqual(44);
		}
		await page.getByTestId("session-item").first().tap();
		await page.locator('[data-testid="transcript"] article[data-role="assistant"]').first().waitFor();
		const header = await page.locator(".session-head").boundingBox();
		expect(header?.height ?? 999).toBeLessThanOrEqual(140);
		for (const selector of ["#back", "#more-actions", "#tab-transcript", "#send", "#model-picker"]) {
			expect(await heightOf(page, selector), selector).toBeGreaterThanOrEqual(44);
		}
		await page.locator('[data-testid="transcript"] article[data-role="user"]').first().tap();
		const actions = page.locator(".row.selected [data-testid='message-actions'] button");
		await actions.first().waitFor();
		for (const box of await actions.evaluateAll((buttons) => buttons.map((b) => b.getBoundingClientRect().height))) {
			expect(box).toBeGreaterThanOrEqual(44);
		}
		await page.locator("#more-actions").tap();
		await page.locator("#delete").waitFor();
		for (const selector of ["#compact", "#fork", "#branch", "#export", "#archive", "#delete"]) {
			const box = await page.locator(selector).boundingBox();
			expect(box?.height ?? 0, selector).toBeGreaterThanOrEqual(44);
			expect((box?.x ?? 999) + (box?.width ?? 0), selector).toBeLessThanOrEqual(390);
		}
		expect(await page.evaluate("document.documentElement.scrollWidth")).toBeLessThanOrEqual(390);
		expect(session.id).toBeTruthy();
		await page.close();
	});

	it("Enter adds a line on a touch screen; Send sends", async () => {
		const session = await createSession(server, { name: "Typing on a phone" });
		const page = await phone.context.newPage();
		await page.goto(`${server.url}/#/s/${session.id}`);
		await expect.poll(() => page.locator("#session-name").textContent()).toBe("Typing on a phone");
		const box = page.getByTestId("message-input");
		await box.tap();
		await page.keyboard.type("first line");
		await page.keyboard.press("Enter");
		await page.keyboard.type("second line");
		expect(await box.inputValue()).toBe("first line\nsecond line");
		expect((await server.runtime.metadata(session.id)).messageCount).toBe(0);
		await page.getByTestId("send").tap();
		await page.locator('[data-testid="transcript"] article[data-role="assistant"]:not(.streaming)').first().waitFor();
		const user = await page.locator('[data-testid="transcript"] article[data-role="user"]').first().textContent();
		expect(user).toContain("first line");
		expect(user).toContain("second line");
		await page.close();
	});

	it("the tree's rows stay on the screen, however deep the branches", async () => {
		const session = await createSession(server, { name: "Deep branches" });
		const say = async (content: string) => {
			const response = await server.api(`/api/sessions/${session.id}/messages?wait=1`, {
				method: "POST",
				json: { content },
			});
			return ((await response.json()) as { records: Array<{ seq: number; role?: string }> }).records;
		};
		let at = (await say("root question")).find((r) => r.role === "assistant")?.seq as number;
		// Each level: two branches from the same reply, so the tree indents once more.
		for (let depth = 0; depth < 10; depth++) {
			await say(`left ${depth} with a long line of text that would run past the edge of a small screen`);
			await server.api(`/api/sessions/${session.id}/branch`, { method: "POST", json: { atSeq: at } });
			at = (await say(`right ${depth}`)).find((r) => r.role === "assistant")?.seq as number;
		}
		const page = await phone.context.newPage();
		await page.goto(`${server.url}/#/s/${session.id}`);
		await page.locator("#tab-tree").tap();
		await page.getByTestId("tree-line").first().waitFor();
		const rights = await page
			.getByTestId("tree-line")
			.evaluateAll((lines) => lines.map((line) => line.getBoundingClientRect().right));
		expect(rights.length).toBeGreaterThan(10);
		for (const right of rights) expect(right).toBeLessThanOrEqual(390);
		expect(await page.evaluate("document.documentElement.scrollWidth")).toBeLessThanOrEqual(390);
		await page.close();
	});
});
