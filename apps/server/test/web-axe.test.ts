import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { type AxeViolation, axeViolations } from "./support/axe.js";
import { skipBrowser } from "./support/chromium.js";
import { serverAndBrowser, type TestBrowser } from "./support/page-harness.js";
import { createSession, type TestServer } from "./support/test-server.js";

const PNG =
	"iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAF0lEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==";

/** A session such as agents write: Markdown with code and tables, tool calls and their results, an image, a compaction. */
async function longSession(server: TestServer): Promise<string> {
	const session = await createSession(server, { name: "A long session" });
	const turns = [];
	for (let i = 0; i < 40; i++) {
		turns.push(
			{
				recordType: "message" as const,
				role: "user" as const,
				content: [{ type: "text" as const, text: `question ${i}` }],
			},
			{
				recordType: "message" as const,
				role: "assistant" as const,
				content: [
					{
						type: "text" as const,
						text: `Answer ${i}:\n\n\`\`\`ts\n// a comment\nconst value = "text ${i}" + ${i};\n\`\`\`\n\n| a | b |\n|---|---|\n| ${i} | two |`,
					},
					...(i % 10 === 3
						? [{ type: "toolCall" as const, id: `call-${i}`, name: "bash", arguments: { command: "ls" } }]
						: []),
				],
			},
			...(i % 10 === 3
				? [
						{
							recordType: "message" as const,
							role: "toolResult" as const,
							toolCallId: `call-${i}`,
							toolName: "bash",
							isError: false,
							content: [{ type: "text" as const, text: "README.md\nsrc" }],
						},
					]
				: []),
		);
	}
	turns.push({
		recordType: "message" as const,
		role: "user" as const,
		content: [
			{ type: "text" as const, text: "what is in this picture?" },
			{ type: "image" as const, mimeType: "image/png", data: PNG },
		],
	});
	await server.runtime.store.append(session.id, turns);
	await server.api(`/api/sessions/${session.id}/compact`, { method: "POST", json: { keepRecentTokens: 200 } });
	await server.api(`/api/sessions/${session.id}/messages?wait=1`, { method: "POST", json: { content: "and now?" } });
	return session.id;
}

/** A session with two branches, opened on the one that is not active. */
async function branchedSession(server: TestServer): Promise<string> {
	const session = await createSession(server, { name: "Two ways" });
	const say = (content: string) =>
		server.api(`/api/sessions/${session.id}/messages?wait=1`, { method: "POST", json: { content } });
	await say("first");
	await say("second");
	await server.api(`/api/sessions/${session.id}/branch`, { method: "POST", json: { atSeq: 2 } });
	await say("other way");
	return session.id;
}

const WIDTHS = [
	{ name: "desktop 1440×900", width: 1440, height: 900 },
	{ name: "phone 390×844", width: 390, height: 844 },
] as const;

describe.skipIf(skipBrowser)("axe-core finds no violation on any view of the page, desktop and phone", () => {
	let server: TestServer;
	let browser: TestBrowser;
	serverAndBrowser((started, launched) => {
		server = started;
		browser = launched;
	});

	const report: Array<{ view: string; width: string; violations: AxeViolation[] }> = [];
	async function check(page: Page, view: string, width: string) {
		await page.waitForTimeout(150);
		const violations = await axeViolations(page);
		report.push({ view, width, violations });
		expect(violations, `${view} at ${width}: ${JSON.stringify(violations, null, 1)}`).toEqual([]);
	}

	for (const size of WIDTHS) {
		it(`the list, a long session, a branched one, the tree, the context and the export at ${size.name}`, async () => {
			const long = await longSession(server);
			const branched = await branchedSession(server);
			const page = await browser.context.newPage();
			await page.setViewportSize({ width: size.width, height: size.height });
			await page.goto(`${server.url}/`);
			await page.getByTestId("session-item").first().waitFor();
			await check(page, "session list", size.name);

			await page.goto(`${server.url}/#/s/${long}`);
			await page.locator('[data-testid="transcript"] article[data-role="assistant"]').first().waitFor();
			await page.getByTestId("message-image").first().waitFor();
			await check(page, "long session", size.name);
			// Scrolled up to the compaction and the tool calls, a message selected (its actions shown).
			await page.locator('[data-testid="transcript"]').evaluate((el) => {
				el.scrollTop = el.scrollHeight / 3;
			});
			await page.locator('[data-testid="transcript"] article[data-role="user"]').first().click();
			await check(page, "long session, scrolled, a message selected", size.name);

			await page.locator("#tab-context").click();
			await page.getByTestId("token-estimate").waitFor();
			await check(page, "context tab", size.name);
			await page.locator("#tab-tree").click();
			await page.getByTestId("tree-line").first().waitFor();
			await check(page, "tree tab", size.name);
			await page.locator("#tab-transcript").click();

			if (size.width < 760) await page.locator("#more-actions").click();
			await page.locator("#export").click();
			await page.getByTestId("export-dialog").waitFor();
			await check(page, "export dialog", size.name);
			await page.locator("#export-cancel").click();

			await page.goto(`${server.url}/#/s/${branched}`);
			await page.getByTestId("branch-switcher").first().waitFor();
			await page.getByTestId("branch-switcher").getByRole("button", { name: "previous branch" }).click();
			await page.locator('[data-testid="transcript"] article', { hasText: "second" }).first().waitFor();
			await check(page, "branched session, another branch on screen", size.name);
			await page.close();
		});
	}

	it("reports what it found, per view and width", () => {
		for (const row of report) {
			console.log(
				`axe ${row.view} @ ${row.width}: ${row.violations.length === 0 ? "no violation" : row.violations.map((v) => `${v.id} (${v.nodes.length})`).join(", ")}`,
			);
		}
		expect(report.length).toBeGreaterThan(0);
	});
});
