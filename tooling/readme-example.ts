/// <reference types="node" />
/**
 * Runs a package README's example as a user would: the block after `<!-- example -->` is written
 * into the package directory as an ES module (so the package's own name resolves to its build by
 * self-reference) and run with node; what it prints is compared with the block after
 * `<!-- example-output -->`. One harness for every package's readme.test.ts.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The code of the fenced block that follows `<!-- marker -->` in README.md. */
export function readmeBlock(readme: string, marker: string): string {
	const match = new RegExp(`<!-- ${marker} -->\\s*\`\`\`\\w+\\n([\\s\\S]*?)\`\`\``).exec(readme);
	if (!match) throw new Error(`README.md has no ${marker} block`);
	return match[1] as string;
}

/** Runs the example of the package at `packageDir`; returns what it printed and what the README shows. */
export function runReadmeExample(packageDir: URL | string): { printed: string; expected: string } {
	const dir = typeof packageDir === "string" ? packageDir : fileURLToPath(packageDir);
	const readme = readFileSync(join(dir, "README.md"), "utf8");
	const script = join(dir, `.readme-example-${process.pid}.mjs`);
	// Anything the example puts in the temporary directory goes away with it.
	const temp = mkdtempSync(join(tmpdir(), "readme-example-"));
	writeFileSync(script, readmeBlock(readme, "example"));
	try {
		const printed = execFileSync(process.execPath, [script], {
			cwd: dir,
			encoding: "utf8",
			env: { ...process.env, TMPDIR: temp },
		});
		return { printed, expected: readmeBlock(readme, "example-output") };
	} finally {
		rmSync(script, { force: true });
		rmSync(temp, { recursive: true, force: true });
	}
}
