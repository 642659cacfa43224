import { describe, expect, it } from "vitest";
import { skipBrowser, watchErrors } from "./support/chromium.js";
import { serverAndBrowser, type TestBrowser } from "./support/page-harness.js";
import { createSession, type TestServer } from "./support/test-server.js";

/** A 64×48 PNG, two colors. */
const PNG =
	"iVBORw0KGgoAAAANSUhEUgAAAEAAAAAwCAIAAAAuKetIAAAATUlEQVR4nO3PQQ0AMAgEMEQgYnKQPRETMw8k92tSA607J6rDSkBAQEBAQEBAQEBAQEBAQEBgGXhRHSYgICAgICAgICAgICAgICAgsPIBy1wA4h5tAtUAAAAASUVORK5CYII=";

function userText(text: string) {
	return { recordType: "message" as const, role: "user" as const, content: [{ type: "text" as const, text }] };
}

describe.skipIf(skipBrowser)("what the page shows: images and search", () => {
	let server: TestServer;
	let browser: TestBrowser;
	serverAndBrowser((started, launched) => {
		server = started;
		browser = launched;
	});

	it("shows images as images, size-capped, and a click enlarges one; the HTML export has them too", async () => {
		const session = await createSession(server, { name: "Pictures" });
		await server.runtime.store.append(session.id, [
			{
				recordType: "message",
				role: "user",
				content: [
					{ type: "text", text: "what is this?" },
					{ type: "image", mimeType: "image/png", data: PNG },
				],
			},
		]);
		const page = await browser.context.newPage();
		const errors = watchErrors(page);
		await page.goto(`${server.url}/#/s/${session.id}`);
		const image = page.getByTestId("message-image");
		await image.waitFor();
		await expect
			.poll(() => image.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth))
			.toBe(64);
		expect(await page.locator(".image-placeholder").count()).toBe(0);
		const capped = await page.evaluate("getComputedStyle(document.querySelector('img.message-image')).maxHeight");
		expect(capped).toMatch(/px$/);
		await image.click();
		await page.locator("#image-dialog[open] img").waitFor();
		expect(await page.locator("#image-dialog img").getAttribute("src")).toBe(`data:image/png;base64,${PNG}`);
		await page.keyboard.press("Escape");

		const html = await (await server.api(`/api/sessions/${session.id}/export?format=html`)).text();
		expect(html).toContain(`src="data:image/png;base64,${PNG}"`);
		expect(html).toMatch(/label\.image img\{[^}]*max-height:24rem/);
		expect(errors).toEqual([]);
		await page.close();
	});

	it("search: every hit names its session, says how many matched, pages with Show more, and cuts snippets on words", async () => {
		const quiet = await createSession(server, { name: "Quiet planning" });
		const long = `${"alpha beta gamma delta epsilon ".repeat(6)}the marsupial census ${"zeta eta theta iota kappa ".repeat(6)}`;
		await server.runtime.store.append(quiet.id, [
			userText(long),
			...Array.from({ length: 74 }, (_, i) => userText(`marsupial note ${i}`)),
		]);
		const page = await browser.context.newPage();
		await page.goto(`${server.url}/`);
		await page.getByTestId("session-item").first().waitFor();
		await page.locator("#search").fill("marsupial");
		const hits = page.getByTestId("message-hit");
		await hits.first().waitFor();
		expect(await page.getByTestId("search-count").textContent()).toBe("75 messages match; 30 shown");
		expect(await hits.count()).toBe(30);
		for (const where of await page.locator(".hit-session").allTextContents()) expect(where).toBe("Quiet planning");
		await page.getByTestId("more-hits").click();
		await expect.poll(() => hits.count()).toBe(60);
		await page.getByTestId("more-hits").click();
		await expect.poll(() => hits.count()).toBe(75);
		expect(await page.getByTestId("more-hits").count()).toBe(0);

		const snippet = (await hits.filter({ hasText: "census" }).locator(".hit-snippet").textContent()) ?? "";
		const words = new Set(long.split(" "));
		const inner = snippet.replace(/^…/, "").replace(/…$/, "").split(" ");
		for (const word of inner) expect(words.has(word), `"${word}" in “${snippet}”`).toBe(true);
		expect(await hits.filter({ hasText: "census" }).locator("mark.hit").textContent()).toBe("marsupial");
		await page.close();
	});

	it("a search hit opens its message with the words marked; Ctrl+F finds in the whole of a long session", async () => {
		const needleSeq = 7;
		// Early in a long session: far from the rows drawn at the latest message.
		const session = await createSession(server, { name: "Early needle" });
		await server.runtime.store.append(session.id, [
			...Array.from({ length: 6 }, (_, i) => userText(`filler ${i}`)),
			userText("the golden needle is here"),
			...Array.from({ length: 2500 }, (_, i) => userText(`more filler ${i}`)),
		]);
		const page = await browser.context.newPage();
		const errors = watchErrors(page);
		await page.goto(`${server.url}/`);
		await page.locator("#search").fill("golden needle");
		await page.getByTestId("message-hit").first().click();
		const row = page.locator(`[data-testid="transcript"] .row[data-seq="${needleSeq}"]`);
		await row.waitFor();
		expect(await row.locator("mark.hit").first().textContent()).toBe("golden needle");

		await page.goto(`${server.url}/#/s/${session.id}`);
		await page.reload();
		await page.locator(`[data-testid="transcript"] .row[data-seq="2507"]`).waitFor();
		expect(await row.count()).toBe(0);
		await page.keyboard.press("Control+f");
		await page.locator("#find-input").waitFor();
		await page.keyboard.type("golden NEEDLE");
		await row.waitFor({ timeout: 10_000 });
		expect(await page.locator("#find-count").textContent()).toBe("1 of 1");
		expect((await row.locator("mark.hit").first().textContent())?.toLowerCase()).toBe("golden needle");
		expect(await page.evaluate("document.activeElement.id")).toBe("find-input");
		await page.keyboard.press("Escape");
		expect(await page.locator("#find-bar").isVisible()).toBe(false);
		expect(errors).toEqual([]);
		await page.close();
	});
});
