// @ts-check
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { productFiles, sourceFiles } from "./files.mjs";

/** The house limit: a product source file over this many lines wants splitting by concern. */
export const MAX_LINES = 400;

/**
 * The number of lines of a text (a last line without its newline counts).
 * @param {string} text
 */
export function lineCount(text) {
	if (text === "") return 0;
	const newlines = text.split("\n").length - 1;
	return text.endsWith("\n") ? newlines : newlines + 1;
}

/**
 * The package's product source files longer than `limit` lines, with their length. Tests are
 * exempt: a test file holds the cases of one rule, and splitting it scatters the rule.
 * @param {string} dir
 * @param {number} [limit]
 * @returns {{ file: string; lines: number }[]}
 */
export function longFiles(dir, limit = MAX_LINES) {
	return productFiles(sourceFiles(dir))
		.map((file) => ({ file, lines: lineCount(readFileSync(join(dir, file), "utf8")) }))
		.filter(({ lines }) => lines > limit);
}
