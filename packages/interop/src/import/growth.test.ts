import { mkdirSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { createFileStore } from "@agent/session-fs";
import { describe, expect, it } from "vitest";
import { contextJson, type RealFixture, realFixtures, shapeFixtures } from "../testing/real-fixtures.js";
import { useTempDir } from "../testing/test-dir.js";
import { importPaths } from "./import-paths.js";

/** The formats whose hand-made real-shape files (test/fixtures/<format>/<version>/) are checked for growth too. */
const GROWABLE_SHAPES = ["claude", "codex", "gemini", "copilot"] as const;

let root: string;
useTempDir("interop-growth-", (path) => {
	root = path;
});

/** Imports `lines` as the fixture's file (same name: Claude Code keys sessions by it) into a store; the session's context. */
async function importAs(fixture: RealFixture, home: string, lines: readonly string[]) {
	const dir = join(root, "sources", basename(home));
	mkdirSync(dir, { recursive: true });
	const path = join(dir, basename(fixture.path));
	writeFileSync(path, lines.map((line) => `${line}\n`).join(""));
	const store = createFileStore({ home });
	const [result] = await importPaths(store, [path]);
	return { store, result };
}

async function contextOf(store: ReturnType<typeof createFileStore>, id: string): Promise<string> {
	return contextJson((await store.open(id)).context);
}

describe("a source that grew ends as a fresh import of the whole file would (real and real-shape fixtures, file store)", () => {
	const growable = [
		...realFixtures("codex"),
		...realFixtures("claude"),
		...GROWABLE_SHAPES.flatMap((f) => shapeFixtures(f)),
	];
	for (const fixture of growable) {
		it(`every cut point of ${fixture.name}: import(cut) then import(full) gives the context of import(full)`, async () => {
			const fresh = await importAs(fixture, join(root, "fresh"), fixture.lines);
			expect(fresh.result?.status).toBe("imported");
			const expected = await contextOf(fresh.store, fresh.result?.id as string);
			expect(JSON.parse(expected).messages.length).toBeGreaterThan(0);
			const stuck: number[] = [];
			for (let cut = 1; cut < fixture.lines.length; cut++) {
				const home = join(root, `cut-${cut}`);
				await importAs(fixture, home, fixture.lines.slice(0, cut));
				const { store, result } = await importAs(fixture, home, fixture.lines);
				if (!result?.id || (await contextOf(store, result.id)) !== expected) stuck.push(cut);
			}
			expect(stuck, `cut points (lines kept) whose re-import does not end as a fresh import`).toEqual([]);
		}, 120_000);

		it(`${fixture.name} growing one line at a time, imported after every line, ends as a fresh import`, async () => {
			const fresh = await importAs(fixture, join(root, "fresh"), fixture.lines);
			const expected = await contextOf(fresh.store, fresh.result?.id as string);
			const home = join(root, "growing");
			let last: Awaited<ReturnType<typeof importAs>> | undefined;
			for (let cut = 1; cut <= fixture.lines.length; cut++)
				last = await importAs(fixture, home, fixture.lines.slice(0, cut));
			expect(last?.result?.status).not.toBe("failed");
			expect(await contextOf(last?.store as ReturnType<typeof createFileStore>, last?.result?.id as string)).toBe(
				expected,
			);
		}, 120_000);
	}
});
