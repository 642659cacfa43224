import type { AgentSessionsOptions } from "@agent/session";
import { resolveModel as resolveByName } from "@agent/session/models";
import { type Context, fauxAssistantMessage, registerFauxProvider } from "@mariozechner/pi-ai";
import { afterAll, describe, expect, it } from "vitest";
import { skipBrowser, watchErrors } from "./support/chromium.js";
import { serverAndBrowser, type TestBrowser } from "./support/page-harness.js";
import { createSession, type TestServer } from "./support/test-server.js";

const SUMMARY = [
	"## Goal",
	"- the test",
	"## Progress",
	"### Done",
	"- [x] chunk",
	"## Key Decisions",
	"- none",
	"## Next Steps",
	"1. more",
	"## Critical Context",
	"- none",
].join("\n");

/**
 * The summarizer the page's compactions go to (config.yaml's compaction_model): a faux model
 * with an 8,000-token window, so a long history goes in many chunks. While `hold` is set, every
 * call after the first waits until its AbortSignal fires, so a compaction is still running when
 * the test presses Stop.
 */
function heldSummarizer() {
	const faux = registerFauxProvider({
		provider: "faux-summarizer",
		models: [
			{ id: "small", contextWindow: 8000, maxTokens: 1024 },
			{ id: "tiny", contextWindow: 3000, maxTokens: 256 },
		],
	});
	const state = { hold: true, prompts: [] as string[] };
	const answer = async (
		context: Context,
		options: { signal?: AbortSignal } | undefined,
		calls: { callCount: number },
	) => {
		const first = context.messages[0];
		state.prompts.push(
			first?.role === "user" && typeof first.content !== "string" ? JSON.stringify(first.content) : "",
		);
		if (state.hold && calls.callCount > 1) {
			await new Promise<void>((resolve) => {
				if (options?.signal?.aborted) resolve();
				options?.signal?.addEventListener("abort", () => resolve(), { once: true });
			});
			return fauxAssistantMessage("", { stopReason: "aborted", errorMessage: "aborted" });
		}
		return fauxAssistantMessage(SUMMARY);
	};
	faux.setResponses(Array.from({ length: 400 }, () => answer));
	const model = faux.getModel();
	// A chat model whose window (3,000 tokens, less the 2,600 the test's settings reserve) leaves
	// too little room for a summary: its automatic compactions cannot reduce the context.
	const tiny = faux.getModel("tiny");
	const resolveModel: AgentSessionsOptions["resolveModel"] = (name: string) => {
		if (name === "faux-summarizer/small") return { name, model };
		if (name === "faux-summarizer/tiny" && tiny) return { name, model: tiny };
		return resolveByName(name);
	};
	return { faux, state, resolveModel };
}

describe.skipIf(skipBrowser)("compaction from the web page", () => {
	let server: TestServer;
	let browser: TestBrowser;
	const summarizer = heldSummarizer();
	serverAndBrowser(
		(started, launched) => {
			server = started;
			browser = launched;
		},
		{
			configYaml:
				"compaction_model: faux-summarizer/small\ncompaction:\n  reserve_tokens: 2600\n  keep_recent_tokens: 600\n",
			runtime: { resolveModel: summarizer.resolveModel },
		},
	);
	afterAll(() => summarizer.faux.unregister());

	it("shows the progress of a long compaction in chunks, stops it on request (nothing written), then runs it with the options given", async () => {
		const session = await createSession(server, { name: "Long history" });
		for (let turn = 0; turn < 20; turn++) {
			await server.runtime.store.append(session.id, [
				{ recordType: "message", role: "user", content: [{ type: "text", text: `question ${turn} `.repeat(300) }] },
				{ recordType: "message", role: "assistant", content: [{ type: "text", text: `answer ${turn} `.repeat(300) }] },
			]);
		}
		const before = (await server.runtime.metadata(session.id)).lastSeq;
		const page = await browser.context.newPage();
		const errors = watchErrors(page);
		await page.goto(`${server.url}/#/s/${session.id}`);
		await page.locator('[data-testid="transcript"] article[data-role="assistant"]').first().waitFor();

		await page.locator("#compact").click();
		await page.getByTestId("compact-dialog").waitFor();
		await page.locator("#compact-keep").fill("100");
		await page.locator("#compact-run").click();
		const status = page.locator("#compact-status");
		await expect
			.poll(() => status.textContent(), { timeout: 20_000 })
			.toMatch(/Summarized \d+ of \d+ messages \(call \d+ of \d+ done\)/);
		expect(Number(await page.locator("#compact-bar").getAttribute("value"))).toBeGreaterThan(0);
		// While a call runs, the time taken so far goes on counting: the dialog shows it is alive.
		await expect
			.poll(() => page.locator("#compact-elapsed").textContent(), { timeout: 5000 })
			.toMatch(/^running for [2-9]\d* s$/);
		expect(await page.locator("#compact-cancel").textContent()).toBe("Stop");
		await page.locator("#compact-cancel").click();
		await expect
			.poll(() => page.locator("#notice").textContent(), { timeout: 20_000 })
			.toBe("Compaction stopped: nothing was written.");
		expect(await page.getByTestId("compact-dialog").isVisible()).toBe(false);
		expect((await server.runtime.metadata(session.id)).lastSeq).toBe(before);
		expect(await page.getByTestId("compaction").count()).toBe(0);

		summarizer.state.hold = false;
		summarizer.state.prompts.length = 0;
		await page.locator("#compact").click();
		expect(await page.getByTestId("compact-progress").isVisible()).toBe(false);
		await page.locator("#compact-instructions").fill("keep every question number");
		await page.locator("#compact-keep").fill("100");
		await page.locator("#compact-run").click();
		await page.getByTestId("compaction").waitFor({ timeout: 20_000 });
		await expect.poll(() => page.locator("#notice").textContent()).toMatch(/^Compacted/);
		expect(summarizer.state.prompts.length).toBeGreaterThan(2);
		for (const prompt of summarizer.state.prompts) expect(prompt).toContain("keep every question number");
		expect((await server.runtime.metadata(session.id)).lastSeq).toBe(before + 1);
		expect(errors).toEqual([]);
		await page.close();
	});

	it("says why when an automatic compaction is skipped because it cannot make the context smaller", async () => {
		summarizer.state.hold = false;
		// Through the runtime: the API accepts only the models it lists, and this test's model is not one.
		const session = await server.runtime.create({ name: "Cannot shrink", model: "faux-summarizer/tiny" });
		const page = await browser.context.newPage();
		const errors = watchErrors(page);
		await page.goto(`${server.url}/#/s/${session.id}`);
		await page.locator("#composer").waitFor();
		for (let i = 0; i < 3; i++) {
			await server.runtime.send(session.id, `message ${i} ${"lorem ipsum dolor sit amet ".repeat(15)}`);
		}
		await expect
			.poll(() => page.locator("#notice").textContent(), { timeout: 20_000 })
			.toMatch(/^Automatic compaction skipped: compacting cannot reduce the context: it keeps ~\d+ tokens/);
		expect(await page.getByTestId("compaction").count()).toBe(0);
		expect(errors).toEqual([]);
		await page.close();
	});

	it("POST /compact/cancel with nothing running cancels nothing", async () => {
		const session = await createSession(server, { name: "Idle" });
		const response = await server.api(`/api/sessions/${session.id}/compact/cancel`, { method: "POST", json: {} });
		expect(response.status).toBe(200);
		expect(await response.json()).toEqual({ sessionId: session.id, cancelled: 0 });
	});
});
