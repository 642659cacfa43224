import { describe, expect, it } from "vitest";
import { lineCount, longFiles } from "../src/long-files.mjs";
import { linesOf, scratchPackage } from "./scratch.js";

describe("longFiles", () => {
	it("flags a product file over 400 lines and passes one of exactly 400", () => {
		const dir = scratchPackage({ "src/big.ts": linesOf(401), "src/fits.ts": linesOf(400) });
		expect(longFiles(dir)).toEqual([{ file: "src/big.ts", lines: 401 }]);
	});

	it("counts the web page's sources as product files", () => {
		const dir = scratchPackage({ "web/src/view.ts": linesOf(450) });
		expect(longFiles(dir)).toEqual([{ file: "web/src/view.ts", lines: 450 }]);
	});

	it("exempts tests, test folders and files outside src", () => {
		const dir = scratchPackage({
			"src/store.test.ts": linesOf(900),
			"test/suite.ts": linesOf(900),
			"src/test/helpers.ts": linesOf(900),
			"bench/run.ts": linesOf(900),
			"build.mjs": linesOf(900),
		});
		expect(longFiles(dir)).toEqual([]);
	});

	it("counts a last line without its newline", () => {
		expect(lineCount("")).toBe(0);
		expect(lineCount("a")).toBe(1);
		expect(lineCount("a\n")).toBe(1);
		expect(lineCount("a\nb")).toBe(2);
	});
});
