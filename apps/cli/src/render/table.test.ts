import { describe, expect, it } from "vitest";
import { painter } from "../io/colors.js";
import { renderTable } from "./table.js";

describe("renderTable", () => {
	it("pads columns to their widest cell, right-aligns numbers and ignores color codes when measuring", () => {
		const bold = painter(true);
		const lines = renderTable(
			[{ header: "ID" }, { header: "N", right: true }, { header: "NAME" }],
			[
				[bold("bold", "a"), "5", "first"],
				["bbb", "123", "second"],
			],
		);
		expect(lines.map((line) => line.replace(/\u001b\[[0-9;]*m/g, ""))).toEqual([
			"ID     N  NAME",
			"a      5  first",
			"bbb  123  second",
		]);
	});

	it("cuts long cells with an ellipsis and keeps each cell on one line", () => {
		const lines = renderTable([{ header: "NAME", max: 5 }], [["a\nvery long name"]]);
		expect(lines[1]).toBe("a ve…");
	});
});
