import { describe, expect, it } from "vitest";
import type { ContentBlock } from "./content.js";
import { estimateContentTokens } from "./tokens.js";

function toolCall(args: Record<string, unknown>): ContentBlock {
	return { type: "toolCall", id: "call_1", name: "write", arguments: args };
}

describe("estimateContentTokens", () => {
	it("counts a tool call as its name and its arguments' JSON, short or long, however often it is measured", () => {
		for (const args of [{}, { path: "a.ts" }, { path: "a.ts", content: 'say "hi"\n\tdone\u2028'.repeat(200) }]) {
			const block = toolCall(args);
			const expected = Math.ceil(("write".length + JSON.stringify(args).length) / 4);
			expect(estimateContentTokens([block])).toBe(expected);
			expect(estimateContentTokens([block])).toBe(expected);
			expect(estimateContentTokens([toolCall(structuredClone(args))])).toBe(expected);
		}
	});

	it("measures arguments the schema would not allow (a string, none) instead of failing", () => {
		const text = "x".repeat(1000);
		const bad = { type: "toolCall", id: "c", name: "n", arguments: text } as unknown as ContentBlock;
		expect(estimateContentTokens([bad])).toBe(Math.ceil((1 + JSON.stringify(text).length) / 4));
		const none = { type: "toolCall", id: "c", name: "n" } as unknown as ContentBlock;
		expect(estimateContentTokens([none])).toBe(1);
	});
});
