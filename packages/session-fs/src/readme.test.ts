// Runs the README's example against the built package (as a user would import it) and compares what it prints.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const PACKAGE = fileURLToPath(new URL("..", import.meta.url));
const README = readFileSync(`${PACKAGE}README.md`, "utf8");

function block(marker: string): string {
	const match = new RegExp(`<!-- ${marker} -->\\s*\`\`\`\\w+\\n([\\s\\S]*?)\`\`\``).exec(README);
	if (!match) throw new Error(`README.md has no ${marker} block`);
	return match[1] as string;
}

describe("README.md", () => {
	it("the example runs and prints what the README shows", () => {
		// Inside the package, so `@agent/session-fs` resolves to this package's build (self-reference).
		const script = `${PACKAGE}.readme-example-${process.pid}.mjs`;
		writeFileSync(script, block("example"));
		// The example's temporary home goes in a directory removed afterwards.
		const temp = mkdtempSync(join(tmpdir(), "session-fs-readme-"));
		try {
			const printed = execFileSync(process.execPath, [script], {
				encoding: "utf8",
				env: { ...process.env, TMPDIR: temp },
			});
			expect(printed).toBe(block("example-output"));
		} finally {
			rmSync(script, { force: true });
			rmSync(temp, { recursive: true, force: true });
		}
	});
});
