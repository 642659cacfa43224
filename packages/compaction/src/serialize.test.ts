import type { ContextMessage } from "@agent/session-format";
import { describe, expect, it } from "vitest";
import { serializeConversation, serializeMessage, truncate } from "./serialize.js";

const m = (message: Omit<ContextMessage, "origin">): ContextMessage => ({ origin: "message", ...message });

describe("serialization for the summarizer (spec §7.5.5)", () => {
	it("S7.18: the spec's example conversation becomes the spec's flat text, not JSON", () => {
		const messages = [
			m({ role: "user", content: [{ type: "text", text: "What pods are running?" }] }),
			m({
				role: "assistant",
				content: [
					{ type: "text", text: "Let me check." },
					{ type: "toolCall", id: "tc_1", name: "bash", arguments: { command: "kubectl get pods" } },
				],
			}),
			m({
				role: "toolResult",
				content: [{ type: "text", text: "NAME   READY   STATUS\nnginx  1/1     Running" }],
				toolCallId: "tc_1",
				isError: false,
			}),
			m({
				role: "assistant",
				content: [{ type: "text", text: "There is one pod running: nginx, with status Running." }],
			}),
		];
		expect(serializeConversation(messages)).toBe(
			[
				"[User]: What pods are running?",
				"[Assistant]: Let me check.",
				'[Assistant tool calls]: bash(command="kubectl get pods")',
				"[Tool result]: NAME   READY   STATUS",
				"nginx  1/1     Running",
				"[Assistant]: There is one pod running: nginx, with status Running.",
			].join("\n"),
		);
		expect(serializeConversation(messages)).not.toContain('"role"');
	});

	it("cuts a long tool result and says how much was cut", () => {
		const output = "x".repeat(5000);
		const text = serializeMessage(m({ role: "toolResult", content: [{ type: "text", text: output }] }), {
			maxToolResultChars: 100,
		});
		expect(text).toBe(`[Tool result]: ${"x".repeat(100)}\n[... 4900 of 5000 characters truncated]`);
	});

	it("leaves short tool results and user text whole, however long the user text", () => {
		expect(truncate("short", 10)).toBe("short");
		const long = "y".repeat(5000);
		expect(serializeMessage(m({ role: "user", content: [{ type: "text", text: long }] }))).toBe(`[User]: ${long}`);
	});

	it("labels thinking, several tool calls, errors and images", () => {
		const assistant = m({
			role: "assistant",
			content: [
				{ type: "thinking", thinking: "hmm" },
				{ type: "toolCall", id: "a", name: "read", arguments: { path: "a.ts", limit: 5 } },
				{ type: "toolCall", id: "b", name: "ls", arguments: {} },
			],
		});
		expect(serializeMessage(assistant)).toBe(
			'[Assistant thinking]: hmm\n[Assistant tool calls]: read(path="a.ts", limit=5); ls()',
		);
		const failed = m({ role: "toolResult", content: [{ type: "text", text: "ENOENT" }], isError: true });
		expect(serializeMessage(failed)).toBe("[Tool result (error)]: ENOENT");
		const image = m({
			role: "user",
			content: [
				{ type: "text", text: "see" },
				{ type: "image", data: "AAAA", mimeType: "image/png" },
			],
		});
		expect(serializeMessage(image)).toBe("[User]: see\n[image: image/png]");
	});

	it("leaves out messages with nothing to show (an empty aborted answer)", () => {
		const messages = [
			m({ role: "user", content: [{ type: "text", text: "go" }] }),
			m({ role: "assistant", content: [], stopReason: "aborted" }),
		];
		expect(serializeConversation(messages)).toBe("[User]: go");
	});
});
