// Root exports are what users need: every export of a published entry point is used by another
// package, a test or an example in a README or docs/, or kept on purpose with a reason
// (src/kept-exports.ts).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { namesTaken } from "../src/export-uses.js";
import { KEPT } from "../src/kept-exports.js";
import { type EntryPoint, entryPointsOf, exportUses, readers, unusedExports } from "../src/public-exports.js";
import { publishedPackages, type WorkspacePackage } from "../src/workspace.js";

describe("an export's users", () => {
	const dir = mkdtempSync(join(tmpdir(), "agent-exports-"));
	afterAll(() => rmSync(dir, { recursive: true, force: true }));

	it("are the files that import it, and the used exports whose declarations name it", () => {
		const declaration = join(dir, "index.d.ts");
		writeFileSync(
			declaration,
			[
				"export interface Inner { x: number }",
				"export interface Options { inner: Inner }",
				"export interface Result { ok: boolean }",
				"export declare function run(options: Options): Result;",
				"export declare class Base {}",
				"export declare class Thing extends Base {}",
				"export interface Lonely { y: string }",
				"export declare function unused(lonely: Lonely): void;",
			].join("\n"),
		);
		const pkg = { name: "@x/kit", dir, path: "x", version: "0.0.0", manifest: { name: "@x/kit" } } as WorkspacePackage;
		const entry: EntryPoint = { specifier: "@x/kit", pkg, declaration };
		const reader = { path: "other/src/use.ts", taken: namesTaken("use.ts", 'import { run, Thing } from "@x/kit";') };
		const uses = exportUses([entry], [reader]).get("@x/kit");
		expect(Object.fromEntries(uses ?? [])).toEqual({
			Base: ["named by Thing"],
			Inner: ["named by Options"],
			Lonely: [],
			Options: ["named by run"],
			Result: ["named by run"],
			Thing: ["other/src/use.ts"],
			run: ["other/src/use.ts"],
			unused: [],
		});
	});
});

describe("the published entry points", () => {
	const uses = exportUses(publishedPackages().flatMap(entryPointsOf), readers());
	const unused = unusedExports(uses);
	const kept = KEPT.flatMap(({ entry, names }) => names.map((name) => `${entry} ${name}`));

	it("export nothing unused that is not kept on purpose (src/kept-exports.ts)", () => {
		expect(
			unused.filter((line) => !kept.includes(line)),
			"used by no other package, test or doc example: make it internal, or keep it in src/kept-exports.ts with a reason",
		).toEqual([]);
	});

	it("keep on purpose only what is still exported and still unused", () => {
		expect(
			kept.filter((line) => !unused.includes(line)),
			"used (or no longer exported) by now: remove it from src/kept-exports.ts",
		).toEqual([]);
	});

	it("have a reason for every group kept, and list each export once", () => {
		for (const group of KEPT) expect(group.why.length, `${group.entry}: why`).toBeGreaterThan(20);
		expect(kept.length).toBe(new Set(kept).size);
	});
});
