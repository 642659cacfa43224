// @ts-check
import { readdirSync } from "node:fs";
import { join } from "node:path";

/** Folders that hold no source of the package: installs, build output, caches. */
const SKIPPED = new Set(["node_modules", "dist", ".turbo", "coverage", "fixtures"]);

const SOURCE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;

/**
 * Every source file of the package at `dir` (tests, scripts and configs included), relative to
 * it with "/" separators, sorted. Declaration files are left out: they import nothing of ours.
 * @param {string} dir
 * @returns {string[]}
 */
export function sourceFiles(dir) {
	/** @type {string[]} */
	const found = [];
	/** @param {string} relative */
	const walk = (relative) => {
		for (const entry of readdirSync(join(dir, relative), { withFileTypes: true })) {
			const path = relative === "" ? entry.name : `${relative}/${entry.name}`;
			if (entry.isDirectory()) {
				if (!SKIPPED.has(entry.name) && !entry.name.startsWith(".")) walk(path);
			} else if (SOURCE.test(entry.name) && !/\.d\.[mc]?ts$/.test(entry.name)) {
				found.push(path);
			}
		}
	};
	walk("");
	return found.sort();
}

/**
 * The product sources among them: what is under `src/` (or a web page's `web/src/`), not a test
 * and not a test helper folder.
 * @param {readonly string[]} files
 * @returns {string[]}
 */
export function productFiles(files) {
	return files.filter(
		(file) =>
			/^(web\/)?src\//.test(file) && !/\.(test|spec)\.[cm]?[jt]sx?$/.test(file) && !/(^|\/)(test|tests)\//.test(file),
	);
}
