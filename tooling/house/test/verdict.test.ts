import { expect, it, describe as suite } from "vitest";
import { describe, verdict } from "../src/verdict.mjs";

const known = {
	cycles: [{ package: "packages/x", files: ["src/a.ts", "src/b.ts", "src/c.ts"] }],
	longFiles: ["packages/x/src/big.ts"],
};

suite("verdict", () => {
	it("excuses a cycle whose files are all in a known entry, and a known long file", () => {
		const result = verdict(
			"packages/x",
			{ cycles: [["src/a.ts", "src/b.ts"]], unresolved: [], longFiles: [{ file: "src/big.ts", lines: 500 }] },
			known,
		);
		expect(result).toEqual({ cycles: [], unresolved: [], longFiles: [], staleCycles: [], staleLongFiles: [] });
	});

	it("reports a cycle that reaches a file outside the entry, and a long file not listed", () => {
		const found = {
			cycles: [["src/a.ts", "src/d.ts"]],
			unresolved: [],
			longFiles: [{ file: "src/other.ts", lines: 401 }],
		};
		const result = verdict("packages/x", found, known);
		expect(result.cycles).toEqual([["src/a.ts", "src/d.ts"]]);
		expect(result.longFiles).toEqual([{ file: "src/other.ts", lines: 401 }]);
	});

	it("reports an exception that excuses nothing any more, so the list only shrinks", () => {
		const result = verdict("packages/x", { cycles: [], unresolved: [], longFiles: [] }, known);
		expect(result.staleCycles).toEqual(known.cycles);
		expect(result.staleLongFiles).toEqual(["packages/x/src/big.ts"]);
	});

	it("applies another package's exceptions to nothing", () => {
		const found = {
			cycles: [["src/a.ts", "src/b.ts"]],
			unresolved: [],
			longFiles: [{ file: "src/big.ts", lines: 500 }],
		};
		const result = verdict("packages/y", found, known);
		expect(result).toEqual({ ...found, staleCycles: [], staleLongFiles: [] });
	});

	it("says what to do about each problem", () => {
		const result = {
			cycles: [["src/a.ts", "src/b.ts"]],
			unresolved: [{ file: "src/a.ts", request: "./gone.js" }],
			longFiles: [{ file: "src/other.ts", lines: 401 }],
			staleCycles: known.cycles,
			staleLongFiles: ["packages/x/src/big.ts"],
		};
		expect(describe("packages/x", result, 400, "known.mjs")).toEqual([
			expect.stringMatching(/^import cycle in packages\/x: src\/a\.ts -> src\/b\.ts -> src\/a\.ts\. Break it/),
			expect.stringMatching(/^packages\/x\/src\/a\.ts imports "\.\/gone\.js", which does not resolve/),
			expect.stringMatching(/^packages\/x\/src\/other\.ts has 401 lines \(at most 400\): split it/),
			expect.stringMatching(
				/^known\.mjs excuses a cycle in packages\/x \(src\/a\.ts, src\/b\.ts, src\/c\.ts\) that is gone: remove/,
			),
			expect.stringMatching(/^known\.mjs excuses packages\/x\/src\/big\.ts from the line limit.*remove the entry/),
		]);
	});
});
