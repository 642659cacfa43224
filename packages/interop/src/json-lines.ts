import type { Warnings } from "./warnings.js";

/** A parsed source line: its 1-based line number and its JSON value. */
export interface SourceLine {
	line: number;
	value: unknown;
}

/**
 * Parses JSONL lines. Blank lines are skipped; a line that is not JSON is reported (a torn
 * last line as such) and skipped, as the source agents themselves skip them.
 */
export function parseJsonLines(lines: readonly string[], warnings: Warnings): SourceLine[] {
	const out: SourceLine[] = [];
	let last = lines.length;
	while (last > 0 && (lines[last - 1] as string).trim() === "") last--;
	for (let i = 0; i < last; i++) {
		const text = lines[i] as string;
		if (text.trim() === "") continue;
		try {
			out.push({ line: i + 1, value: JSON.parse(text) });
		} catch {
			warnings.add(
				i === last - 1
					? "the last line is incomplete (a torn write) and was skipped"
					: "not valid JSON; the line was skipped",
				i + 1,
			);
		}
	}
	return out;
}

export function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function stringField(object: Record<string, unknown>, key: string): string | undefined {
	const value = object[key];
	return typeof value === "string" ? value : undefined;
}

export function numberField(object: Record<string, unknown>, key: string): number | undefined {
	const value = object[key];
	return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}
