import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { run } from "./exec.js";
import { RELEASE_DIR, ROOT, toolBin } from "./workspace.js";

/** Where `pnpm docs:api` writes the API reference (committed). */
export const API_DOCS = join(ROOT, "docs/api");

/** Runs TypeDoc with tooling/release/typedoc.json, writing the Markdown reference to `out`. */
export function generateApiDocs(out: string) {
	return run(process.execPath, [toolBin("typedoc", "typedoc"), "--options", "typedoc.json", "--out", out], {
		cwd: RELEASE_DIR,
		env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" },
	});
}

function filesUnder(dir: string, base = dir): string[] {
	return readdirSync(dir).flatMap((entry) => {
		const path = join(dir, entry);
		return statSync(path).isDirectory() ? filesUnder(path, base) : [relative(base, path)];
	});
}

/** The files that differ between two generated references (added, removed or changed), sorted. */
export function differingFiles(a: string, b: string): string[] {
	const left = new Set(filesUnder(a));
	const right = new Set(filesUnder(b));
	const all = [...new Set([...left, ...right])].sort();
	return all.filter(
		(file) =>
			!left.has(file) ||
			!right.has(file) ||
			readFileSync(join(a, file), "utf8") !== readFileSync(join(b, file), "utf8"),
	);
}
