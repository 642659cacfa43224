/// <reference types="node" />
// The test reads the sources from disk; the sources themselves must not need Node (checked below).
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC = fileURLToPath(new URL(".", import.meta.url));
const ALLOWED_PACKAGES = new Set(["zod", "ulid"]);

/** Every module specifier in `source`: static imports and re-exports, side-effect imports, dynamic imports, require. */
function specifiers(source: string): string[] {
	const patterns = [
		/\b(?:import|export)\s[^;]*?\bfrom\s*["']([^"']+)["']/g,
		/\bimport\s*["']([^"']+)["']/g,
		/\bimport\s*\(\s*["']([^"']+)["']\s*\)/g,
		/\brequire\s*\(\s*["']([^"']+)["']\s*\)/g,
	];
	return patterns.flatMap((pattern) => [...source.matchAll(pattern)].map((match) => match[1] as string));
}

const sources = readdirSync(SRC)
	.filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts") && !name.startsWith("test-"))
	.map((name) => ({ name, text: readFileSync(`${SRC}${name}`, "utf8") }));

describe("@agent/session-format is pure: it runs in a browser", () => {
	it("finds the sources and their imports (the scan itself works)", () => {
		expect(sources.map((s) => s.name)).toContain("index.ts");
		expect(
			specifiers('import { z } from "zod";\nexport { a } from "./a.js";\nimport "x";\nawait import("y");'),
		).toEqual(["zod", "./a.js", "x", "y"]);
	});

	it("no file in src imports a node: module or any package other than zod and ulid", () => {
		const offending: string[] = [];
		for (const { name, text } of sources) {
			for (const specifier of specifiers(text)) {
				const relative = specifier.startsWith("./") && specifier.endsWith(".js");
				if (!relative && !ALLOWED_PACKAGES.has(specifier)) offending.push(`${name} imports ${specifier}`);
			}
		}
		expect(offending).toEqual([]);
	});

	it("no file in src uses Node globals (process, Buffer, __dirname, require)", () => {
		const offending = sources
			.filter(({ text }) => /\b(?:process\.|Buffer\.|__dirname|__filename|require\()/.test(text))
			.map(({ name }) => name);
		expect(offending).toEqual([]);
	});

	it.each(["index.ts", "reading.ts"])("src/%s only re-exports", (file) => {
		const entry = sources.find((s) => s.name === file)?.text ?? "";
		const statements = entry
			.replace(/\/\*[\s\S]*?\*\//g, "")
			.replace(/\/\/.*$/gm, "")
			.split(";")
			.map((s) => s.trim())
			.filter((s) => s.length > 0);
		expect(statements.length).toBeGreaterThan(0);
		const reexport = /^export (?:(?:type )?\{[^}]*\}|\*) from "\.\/[\w-]+\.js"$/s;
		expect(statements.filter((statement) => !reexport.test(statement))).toEqual([]);
	});
});
