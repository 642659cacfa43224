import { describe, expect, it } from "vitest";
import { EVERY, namesTaken } from "./export-uses.js";

const taken = (text: string, file = "a.ts") =>
	Object.fromEntries(
		[...namesTaken(file, text)].map(([specifier, names]) => [specifier, [...names].map(String).sort()]),
	);

describe("namesTaken: what a file uses of each module", () => {
	it("reads static imports, renamed ones, defaults, type imports and re-exports", () => {
		expect(
			taken(`
				import def, { a, b as c } from "@x/one";
				import type { T } from "@x/one";
				export { d } from "@x/two";
				export { e as f } from "@x/two";
			`),
		).toEqual({ "@x/one": ["T", "a", "b", "default"], "@x/two": ["d", "e"] });
	});

	it("reads a namespace import by the properties read from it", () => {
		expect(taken(`import * as ns from "@x/one"; ns.a(); const t: ns.T = ns.b;`)).toEqual({
			"@x/one": ["T", "a", "b"],
		});
	});

	it("takes every name when the namespace escapes (passed on whole) or is re-exported whole", () => {
		expect(taken(`import * as ns from "@x/one"; use(ns);`)["@x/one"]).toContain(String(EVERY));
		expect(taken(`export * from "@x/two";`)["@x/two"]).toEqual([String(EVERY)]);
	});

	it("reads dynamic imports: destructured, through then(), by property, or held in a local", () => {
		expect(
			taken(`
				const { a, b: renamed } = await import("@x/one");
				import("@x/two").then(({ c }) => c);
				const d = (await import("@x/three")).d;
				let mod: typeof import("@x/four");
				mod = await import("@x/four");
				mod.e();
			`),
		).toEqual({ "@x/one": ["a", "b"], "@x/two": ["c"], "@x/three": ["d"], "@x/four": ["e"] });
	});

	it("reads require() like a dynamic import, and type references through import()", () => {
		expect(taken(`const { a } = require("@x/one"); let t: import("@x/two").T;`, "a.cjs")).toEqual({
			"@x/one": ["a"],
			"@x/two": ["T"],
		});
	});

	it("does not count a same-named property of something else, or a declaration's name", () => {
		expect(
			taken(`import * as ns from "@x/one"; ns.a(); const o = { ns: 1 }; o.ns; function f(ns: number) {}`)["@x/one"],
		).toEqual(["a"]);
	});
});
