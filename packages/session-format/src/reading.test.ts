import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

/** The modules a source file loads when it runs: its imports and re-exports that are not type-only. */
function valueImports(file: string): string[] {
	const source = readFileSync(new URL(file, import.meta.url), "utf8");
	const statements = source.match(/^(?:import|export)\s(?!type\s)[^;]*?\sfrom\s+"[^"]+";/gms) ?? [];
	return statements.map((statement) => (statement.match(/from\s+"([^"]+)"/) as RegExpMatchArray)[1] as string);
}

/** The chain of static imports from `file` to zod, or undefined when it never loads zod. */
function chainToZod(file: string, seen = new Set<string>()): string[] | undefined {
	if (seen.has(file)) return undefined;
	seen.add(file);
	for (const target of valueImports(file)) {
		if (target === "zod") return [file, "zod"];
		if (!target.startsWith("./")) continue;
		const chain = chainToZod(`./${target.slice(2).replace(/\.js$/, ".ts")}`, seen);
		if (chain) return [file, ...chain];
	}
	return undefined;
}

describe("@agent/session-format/reading", () => {
	it("never loads zod, so that reading processes do not pay its start-up", () => {
		expect(chainToZod("./reading.ts")).toBeUndefined();
	});

	it("neither does the store kit, so that a backend's reading half builds no schema", () => {
		expect(chainToZod("./store-kit.ts")).toBeUndefined();
	});

	it("the check above finds zod where it is loaded", () => {
		expect(chainToZod("./index.ts")).toEqual(expect.arrayContaining(["zod"]));
		expect(chainToZod("./parse.ts")?.at(-1)).toBe("zod");
	});
});
