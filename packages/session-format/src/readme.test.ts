/// <reference types="node" />
// Runs the README's example against the sources and compares what it prints with the README.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import * as api from "./index.js";

const README = readFileSync(fileURLToPath(new URL("../README.md", import.meta.url)), "utf8");

function block(marker: string): string {
	const match = new RegExp(`<!-- ${marker} -->\\s*\`\`\`\\w+\\n([\\s\\S]*?)\`\`\``).exec(README);
	if (!match) throw new Error(`README.md has no ${marker} block`);
	return match[1] as string;
}

describe("README.md", () => {
	it("the example runs and prints what the README shows", () => {
		const code = block("example");
		const imports = /^import \{([^}]*)\} from "@agent\/session-format";\n/.exec(code);
		if (!imports) throw new Error("the example must start with one import from @agent/session-format");
		const names = (imports[1] as string)
			.split(",")
			.map((name) => name.trim())
			.filter((name) => name.length > 0);
		const exports = api as Record<string, unknown>;
		for (const name of names) expect(exports[name], `${name} is exported`).toBeDefined();
		const printed: string[] = [];
		const body = code.slice(imports[0].length);
		const run = new Function("console", ...names, body) as (...args: unknown[]) => void;
		run({ log: (line: string) => printed.push(line) }, ...names.map((name) => exports[name]));
		expect(`${printed.join("\n")}\n`).toBe(block("example-output"));
	});
});
