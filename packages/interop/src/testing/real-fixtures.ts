import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import type { SessionContext } from "@agent/session-format";

/** The real session files of other agents kept under packages/interop/fixtures (see the README there). */
export const REAL_FIXTURES = fileURLToPath(new URL("../../fixtures/", import.meta.url));

export interface RealFixture {
	/** The path relative to the fixtures folder, e.g. "claude/codemie-hooks-2.1.7.jsonl". */
	name: string;
	path: string;
	format: "codex" | "claude";
	lines: string[];
}

/** Every .jsonl fixture of a format, sub-agent files included. */
export function realFixtures(format: "codex" | "claude"): RealFixture[] {
	const out: RealFixture[] = [];
	const walk = (dir: string) => {
		for (const name of readdirSync(dir).sort()) {
			const path = join(dir, name);
			if (statSync(path).isDirectory()) walk(path);
			else if (name.endsWith(".jsonl")) {
				const text = readFileSync(path, "utf8");
				const lines = text.split("\n");
				if (lines.at(-1) === "") lines.pop();
				out.push({ name: relative(REAL_FIXTURES, path), path, format, lines });
			}
		}
	};
	walk(join(REAL_FIXTURES, format));
	return out;
}

/** A context as JSON without the seqs of the records it came from (a correction branch renumbers them). */
export function contextJson(context: SessionContext): string {
	return JSON.stringify(
		{ messages: context.messages, model: context.model ?? null, thinkingLevel: context.thinkingLevel ?? null },
		(key, value: unknown) => (key === "seq" ? undefined : value),
	);
}
