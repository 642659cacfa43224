/// <reference types="node" />
// Runs the README's example against the sources and compares what it prints with the README.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import * as api from "./index.js";

const README = readFileSync(fileURLToPath(new URL("../README.md", import.meta.url)), "utf8");

function block(marker: string): string {
	const match = new RegExp(`<!-- ${marker} -->\\n\`\`\`\\w+\\n([\\s\\S]*?)\`\`\``).exec(README);
	if (!match) throw new Error(`README.md has no ${marker} block`);
	return match[1] as string;
}

const MODULES: Record<string, () => Promise<Record<string, unknown>>> = {
	"@agent/compaction": async () => api,
	"@agent/session-format": () => import("@agent/session-format"),
	"@mariozechner/pi-ai": () => import("@mariozechner/pi-ai"),
};

describe("README.md", () => {
	it("the example runs offline and prints what the README shows", async () => {
		let body = block("example");
		const names: string[] = [];
		const values: unknown[] = [];
		for (const match of body.matchAll(/^import \{([^}]*)\} from "([^"]+)";\n/gm)) {
			const load = MODULES[match[2] as string];
			if (!load) throw new Error(`the example imports ${match[2]}, which this test does not provide`);
			const module = await load();
			for (const name of (match[1] as string).split(",").map((n) => n.trim())) {
				expect(module[name], `${name} is exported by ${match[2]}`).toBeDefined();
				names.push(name);
				values.push(module[name]);
			}
			body = body.replace(match[0], "");
		}
		expect(names).toContain("compact");
		const printed: string[] = [];
		const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (
			...args: string[]
		) => (...args: unknown[]) => Promise<void>;
		await new AsyncFunction("console", ...names, body)({ log: (line: string) => printed.push(line) }, ...values);
		expect(`${printed.join("\n")}\n`).toBe(block("example-output"));
	});
});
