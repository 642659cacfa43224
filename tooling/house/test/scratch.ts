import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach } from "vitest";

const made: string[] = [];
afterEach(() => {
	for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const TSCONFIG = JSON.stringify({ compilerOptions: { module: "NodeNext", moduleResolution: "NodeNext" } });

/**
 * A throwaway package folder with these files (path → text) and a NodeNext tsconfig.json unless
 * they give one (null: none), removed after the test.
 */
export function scratchPackage(files: Record<string, string | null>): string {
	const dir = mkdtempSync(join(tmpdir(), "house-"));
	made.push(dir);
	writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "scratch", type: "module" }));
	for (const [file, text] of Object.entries({ "tsconfig.json": TSCONFIG, ...files })) {
		if (text === null) continue;
		mkdirSync(dirname(join(dir, file)), { recursive: true });
		writeFileSync(join(dir, file), text);
	}
	return dir;
}

/** A text of exactly `lines` lines. */
export function linesOf(lines: number): string {
	return "export const x = 1;\n".repeat(lines);
}
