import { describe, expect, it } from "vitest";
import {
	appendFileOperations,
	DEFAULT_FILE_TOOLS,
	extractFileOperations,
	formatFileOperations,
	mergeFileOperations,
	stripFileOperations,
} from "./file-operations.js";
import { PathBuilder } from "./test-fixtures.js";

describe("file operations (spec §7.5.3 step 3)", () => {
	it("read → readFiles; write and edit → modifiedFiles", () => {
		const b = new PathBuilder();
		b.toolTurn("read", { path: "src/a.ts" }, "...");
		b.toolTurn("write", { path: "src/b.ts", content: "x" }, "ok");
		b.toolTurn("edit", { path: "src/c.ts", oldText: "a", newText: "b" }, "ok");
		b.toolTurn("bash", { command: "cat src/d.ts" }, "...");
		expect(extractFileOperations(b.messages())).toEqual({
			readFiles: ["src/a.ts"],
			modifiedFiles: ["src/b.ts", "src/c.ts"],
		});
	});

	it("treats read_file as read, write_file as write, and list_directory as ls (no file)", () => {
		const b = new PathBuilder();
		b.toolTurn("read_file", { path: "old/r.ts" }, "...");
		b.toolTurn("write_file", { path: "old/w.ts" }, "ok");
		b.toolTurn("list_directory", { path: "old" }, "r.ts w.ts");
		expect(extractFileOperations(b.messages())).toEqual({ readFiles: ["old/r.ts"], modifiedFiles: ["old/w.ts"] });
		expect(DEFAULT_FILE_TOOLS).toMatchObject({ read_file: "read", write_file: "modify", list_directory: "none" });
	});

	it("S7.16: a file both read and modified is only in modifiedFiles", () => {
		const b = new PathBuilder();
		b.toolTurn("read", { path: "src/a.ts" }, "...");
		b.toolTurn("edit", { path: "src/a.ts" }, "ok");
		b.toolTurn("read", { path: "src/z.ts" }, "...");
		expect(extractFileOperations(b.messages())).toEqual({ readFiles: ["src/z.ts"], modifiedFiles: ["src/a.ts"] });
	});

	it("S7.15/S7.16 across compactions: merging keeps earlier files and moves re-modified ones", () => {
		const previous = { readFiles: ["a.ts", "b.ts"], modifiedFiles: ["c.ts"] };
		const current = { readFiles: ["c.ts", "d.ts"], modifiedFiles: ["b.ts"] };
		expect(mergeFileOperations(previous, current)).toEqual({
			readFiles: ["a.ts", "d.ts"],
			modifiedFiles: ["b.ts", "c.ts"],
		});
	});

	it("skips calls whose result was an error", () => {
		const b = new PathBuilder();
		b.toolTurn("read", { path: "missing.ts" }, "ENOENT", true);
		expect(extractFileOperations(b.messages())).toEqual({ readFiles: [], modifiedFiles: [] });
	});

	it("takes a configurable tool-name map and path arguments", () => {
		const b = new PathBuilder();
		b.toolTurn("view", { file_path: "v.ts" }, "...");
		b.toolTurn("apply_patch", { target: "p.ts" }, "ok");
		b.toolTurn("read", { path: "ignored.ts" }, "...");
		const ops = extractFileOperations(b.messages(), {
			tools: { view: "read", apply_patch: "modify" },
			pathArguments: ["file_path", "target"],
		});
		expect(ops).toEqual({ readFiles: ["v.ts"], modifiedFiles: ["p.ts"] });
	});

	it("formats the <read-files> and <modified-files> tags of §7.5.4, and strips them again", () => {
		const files = {
			readFiles: ["src/config/loader.ts", "src/agent/loop.ts"],
			modifiedFiles: ["src/tools/executor.ts"],
		};
		const tags =
			"<read-files>\nsrc/config/loader.ts\nsrc/agent/loop.ts\n</read-files>\n\n<modified-files>\nsrc/tools/executor.ts\n</modified-files>";
		expect(formatFileOperations(files)).toBe(tags);
		expect(formatFileOperations({ readFiles: [], modifiedFiles: ["m.ts"] })).toBe(
			"<modified-files>\nm.ts\n</modified-files>",
		);
		const summary = appendFileOperations("## Goal\n- x\n", files);
		expect(summary).toBe(`## Goal\n- x\n\n${tags}`);
		expect(stripFileOperations(summary)).toBe("## Goal\n- x");
		expect(appendFileOperations("## Goal", { readFiles: [], modifiedFiles: [] })).toBe("## Goal");
	});
});
