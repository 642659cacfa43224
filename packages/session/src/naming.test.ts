import { loneSurrogateIndex } from "@agent/session-format/reading";
import { describe, expect, it } from "vitest";
import { cleanTitle, nameFromFirstMessage } from "./naming.js";

const emojiAt = (n: number) => `${"a".repeat(n)}😀bbb`;

describe("session names are cut on whole characters (issue 29, case 1)", () => {
	it("a first message with an emoji across the 60-character cut names the session without half of it", () => {
		for (const n of [57, 58, 59, 60]) {
			const name = nameFromFirstMessage([{ type: "text", text: emojiAt(n) }]) ?? "";
			expect(loneSurrogateIndex(name), String(n)).toBe(-1);
			expect(name.length).toBeLessThanOrEqual(61);
		}
		expect(nameFromFirstMessage([{ type: "text", text: emojiAt(59) }])).toBe(`${"a".repeat(59)}…`);
	});

	it("a model's title with an emoji across the cut keeps it whole or drops it", () => {
		for (const n of [57, 58, 59, 60]) {
			const title = cleanTitle(emojiAt(n)) ?? "";
			expect(loneSurrogateIndex(title), String(n)).toBe(-1);
			expect(title.length).toBeLessThanOrEqual(60);
		}
	});
});
