/// <reference types="node" />
// The test reads the sources from disk; the sources themselves must not need Node (checked below).
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC = fileURLToPath(new URL(".", import.meta.url));
const ALLOWED_PACKAGES = new Set(["zod", "ulid"]);
/** Packages whose types the sources may name (`import type`, erased at build): optional peers. */
const TYPE_ONLY_PACKAGES = new Set(["@mariozechner/pi-ai"]);

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

/** The module specifiers of `import type ... from` statements in `source`. */
function typeOnlySpecifiers(source: string): string[] {
	return [...source.matchAll(/\bimport\s+type\s[^;]*?\bfrom\s*["']([^"']+)["']/g)].map((match) => match[1] as string);
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

	it("no file in src imports a node: module or any package other than zod and ulid (pi-ai: its types only)", () => {
		expect(typeOnlySpecifiers('import type { A } from "p";\nimport { B } from "q";')).toEqual(["p"]);
		const offending: string[] = [];
		for (const { name, text } of sources) {
			const typeOnly = typeOnlySpecifiers(text);
			for (const specifier of specifiers(text)) {
				const relative = specifier.startsWith("./") && specifier.endsWith(".js");
				const erased = TYPE_ONLY_PACKAGES.has(specifier) && typeOnly.includes(specifier);
				if (!relative && !erased && !ALLOWED_PACKAGES.has(specifier)) offending.push(`${name} imports ${specifier}`);
			}
			for (const specifier of TYPE_ONLY_PACKAGES) {
				const all = specifiers(text).filter((s) => s === specifier).length;
				const types = typeOnly.filter((s) => s === specifier).length;
				if (all !== types) offending.push(`${name} imports ${specifier} at run time (only \`import type\` may)`);
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

	it.each(["index.ts", "reading.ts", "store-kit.ts"])("src/%s only re-exports", (file) => {
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
