import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import type { SessionContext } from "@agent/session-format";
import type { SourceFormat } from "../types.js";

/** The real session files of other agents kept under packages/interop/fixtures (see the README there). */
export const REAL_FIXTURES = fileURLToPath(new URL("../../fixtures/", import.meta.url));

/** Hand-made files in the real shape of newer versions (packages/interop/test/fixtures). */
export const SHAPE_FIXTURES = fileURLToPath(new URL("../../test/fixtures/", import.meta.url));

export interface RealFixture {
	/** The path relative to its fixtures folder, e.g. "claude/codemie-hooks-2.1.7.jsonl". */
	name: string;
	path: string;
	format: SourceFormat;
	lines: string[];
}

/** Every .jsonl fixture of a format, sub-agent files included. */
export function realFixtures(format: "codex" | "claude"): RealFixture[] {
	return fixturesUnder(REAL_FIXTURES, format, format);
}

/**
 * The hand-made files written in the shape of real files of newer versions, one folder per
 * version under test/fixtures/<format>/ (e.g. claude/claude-2.1.39/): the same checks run on
 * them as on the real files.
 */
export function shapeFixtures(format: SourceFormat): RealFixture[] {
	const dir = join(SHAPE_FIXTURES, format);
	const versions = readdirSync(dir).filter((name) => statSync(join(dir, name)).isDirectory() && name.includes("-"));
	return versions.flatMap((version) => fixturesUnder(SHAPE_FIXTURES, join(format, version), format));
}

function fixturesUnder(root: string, folder: string, format: SourceFormat): RealFixture[] {
	const out: RealFixture[] = [];
	const walk = (dir: string) => {
		for (const name of readdirSync(dir).sort()) {
			const path = join(dir, name);
			if (statSync(path).isDirectory()) walk(path);
			else if (name.endsWith(".jsonl")) {
				const text = readFileSync(path, "utf8");
				const lines = text.split("\n");
				if (lines.at(-1) === "") lines.pop();
				out.push({ name: relative(root, path), path, format, lines });
			}
		}
	};
	walk(join(root, folder));
	return out;
}

/** A context as JSON without the seqs of the records it came from (a correction branch renumbers them). */
export function contextJson(context: SessionContext): string {
	return JSON.stringify(
		{ messages: context.messages, model: context.model ?? null, thinkingLevel: context.thinkingLevel ?? null },
		(key, value: unknown) => (key === "seq" ? undefined : value),
	);
}
