import { type Context, complete } from "@mariozechner/pi-ai";
import { describe, expect, it } from "vitest";
import { demoModel, demoResponse } from "./demo-model.js";

const SUMMARY_SYSTEM =
	"You are a context summarization assistant. Your task is to read a conversation between\n" +
	"a user and an AI agent, then produce a structured summary following the exact format\n" +
	"specified. Do NOT continue the conversation. Do NOT respond to any questions in the\n" +
	"conversation. ONLY output the structured summary.";

function text(message: { content: Array<{ type: string; text?: string }> }): string {
	return message.content.map((block) => block.text ?? "").join("");
}

describe("the offline demo model", () => {
	it("answers a chat turn deterministically, echoing the question", () => {
		const context: Context = { messages: [{ role: "user", content: "What pods are running?", timestamp: 0 }] };
		const first = text(demoResponse(context));
		expect(first).toContain('You said: "What pods are running?"');
		expect(text(demoResponse(context))).toBe(first);
	});

	it("keeps a summary folded into the next chunk many times over bounded (a long history compacts through it)", () => {
		let summary = "";
		const sizes: number[] = [];
		for (let chunk = 0; chunk < 30; chunk++) {
			const requests = Array.from({ length: 50 }, (_, i) => `[User]: request ${chunk}-${i} ${"word ".repeat(30)}`);
			const folded = summary ? `<previous-summary>\n${summary}\n</previous-summary>\n\n` : "";
			const context: Context = {
				systemPrompt: SUMMARY_SYSTEM,
				messages: [
					{
						role: "user",
						content: `<conversation>\n${requests.join("\n")}\n</conversation>\n\n${folded}Update.`,
						timestamp: 0,
					},
				],
			};
			summary = text(demoResponse(context));
			sizes.push(summary.length);
		}
		expect(summary).toContain("request 29-49");
		expect(Math.max(...sizes.slice(5))).toBeLessThanOrEqual(sizes[4] as number);
		expect(summary.length).toBeLessThan(16_000);
	});

	it("answers a summarization request with every required section (S7.14)", () => {
		const context: Context = {
			systemPrompt: SUMMARY_SYSTEM,
			messages: [
				{
					role: "user",
					content: "<conversation>\n[User]: fix the login bug\n</conversation>\nSummarize.",
					timestamp: 0,
				},
			],
		};
		const summary = text(demoResponse(context));
		for (const section of ["## Goal", "## Progress", "## Key Decisions", "## Next Steps", "## Critical Context"]) {
			expect(summary).toContain(section);
		}
		expect(summary).toContain("fix the login bug");
	});

	it("streams through pi-ai with no network, many calls in parallel", async () => {
		const model = demoModel();
		const replies = await Promise.all(
			Array.from({ length: 300 }, (_, i) =>
				complete(model, { messages: [{ role: "user", content: `question ${i}`, timestamp: 0 }] }),
			),
		);
		replies.forEach((reply, i) => {
			expect(reply.stopReason).toBe("stop");
			expect(text(reply)).toContain(`question ${i}`);
		});
	});
});
