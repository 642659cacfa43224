import { performance } from "node:perf_hooks";
import type { Page } from "playwright-core";
import { afterAll, describe, expect, it } from "vitest";
import { launchChromium, requiredChromium, watchErrors } from "../test/support/chromium.js";
import { closeTestServers, startTestServer } from "../test/support/test-server.js";
import { writeConversation, writeSmallSessions } from "./generate.js";
import {
	elementCount,
	openAtLatest,
	scrollListToEnd,
	scrollTranscriptToMiddle,
	untilComplete,
	watchKeystrokes,
	watchReply,
} from "./page-probes.js";
import { printFigures, type SessionFigures, type WebBenchFigures, writeWebReport } from "./web-report.js";

// WEB_BENCH_SIZES=1000,2000 and WEB_BENCH_SESSIONS=100 make a quick run (no report is written then).
const SIZES = (process.env.WEB_BENCH_SIZES ?? "10000,20000,50000").split(",").map(Number);
const SMALL_SESSIONS = Number(process.env.WEB_BENCH_SESSIONS ?? 2_000);
const FULL = !process.env.WEB_BENCH_SIZES && !process.env.WEB_BENCH_SESSIONS;

/** Progress on stderr, so a long run shows where it is. */
function step(text: string): void {
	process.stderr.write(`[bench:web] ${text}\n`);
}

afterAll(closeTestServers);

describe("the web page at scale (pnpm bench:web)", () => {
	it(`opens ${SIZES.join(", ")}-message sessions and scrolls a ${SMALL_SESSIONS}-session list in Chromium`, async () => {
		const server = await startTestServer();
		const runtime = server.runtime;
		const generateStart = performance.now();
		step(`writing ${SMALL_SESSIONS} small sessions`);
		await writeSmallSessions(runtime, SMALL_SESSIONS);
		const big = [];
		for (const [index, size] of SIZES.entries()) {
			step(`writing a session of ${size} messages`);
			big.push(await writeConversation(runtime, `${size.toLocaleString("en")} messages`, size, index + 1));
		}
		const generateSeconds = (performance.now() - generateStart) / 1000;

		const browser = await launchChromium(requiredChromium());
		const sessions: SessionFigures[] = [];
		try {
			for (const metadata of big) {
				const page = await browser.context.newPage();
				await page.setViewportSize({ width: 1280, height: 800 });
				const errors = watchErrors(page);
				await page.goto(`${server.url}/`);
				await page.getByTestId("session-item").first().waitFor();
				step(`measuring the session of ${metadata.messageCount} messages`);
				sessions.push(await measureSession(page, metadata.id, metadata.lastSeq, metadata.messageCount));
				expect(errors).toEqual([]);
				await page.close();
			}
			const page = await browser.context.newPage();
			await page.setViewportSize({ width: 1280, height: 800 });
			await page.goto(`${server.url}/`);
			await page.getByTestId("session-item").first().waitFor();
			const total = SMALL_SESSIONS + big.length;
			step("scrolling the session list");
			const list = (await page.evaluate(scrollListToEnd(total))) as WebBenchFigures["list"];
			await page.close();
			expect(list.reached).toBe(total);
			const figures: WebBenchFigures = { generateSeconds, sessions, list: { ...list, total } };
			printFigures(figures);
			if (process.env.WEB_BENCH_REPORT && FULL) await writeWebReport(process.env.WEB_BENCH_REPORT, figures);
		} finally {
			await browser.close();
		}
	});
});

async function measureSession(page: Page, id: string, lastSeq: number, messages: number): Promise<SessionFigures> {
	const openMs = (await page.evaluate(openAtLatest(id, lastSeq))) as number;
	step(`opened at the latest in ${Math.round(openMs)} ms`);
	expect(openMs).toBeGreaterThan(0);
	const elements: number[] = [(await page.evaluate(elementCount)) as number];
	const completeMs = (await page.evaluate(untilComplete)) as number;
	step(`every record loaded ${Math.round(completeMs)} ms later`);
	elements.push((await page.evaluate(elementCount)) as number);
	await page.evaluate(scrollTranscriptToMiddle);
	elements.push((await page.evaluate(elementCount)) as number);
	step("context tab");
	await page.locator("#tab-context").click();
	await page.getByTestId("token-estimate").waitFor({ timeout: 60_000 });
	elements.push((await page.evaluate(elementCount)) as number);
	step("tree tab");
	await page.locator("#tab-tree").click();
	await page.getByTestId("tree-line").first().waitFor({ timeout: 60_000 });
	elements.push((await page.evaluate(elementCount)) as number);
	await page.locator("#tab-transcript").click();

	step("keystrokes");
	await page.getByTestId("message-input").focus();
	await page.evaluate(watchKeystrokes);
	await page.keyboard.type("how long does a keystroke take to show", { delay: 40 });
	await page.waitForTimeout(200);
	const keys = ((await page.evaluate("window.__keys")) as number[]).sort((a, b) => a - b);

	step("demo reply");
	await page.getByTestId("message-input").fill("");
	await page.evaluate(watchReply);
	await page.getByTestId("message-input").fill("What is next for the bench?");
	await page.getByTestId("message-input").press("Enter");
	const replyMs = (await page.evaluate("window.__reply")) as number;
	await page.getByTestId("streaming").waitFor({ state: "detached", timeout: 60_000 });
	elements.push((await page.evaluate(elementCount)) as number);
	return { messages, openMs, completeMs, maxElements: Math.max(...elements), keys, replyMs };
}
