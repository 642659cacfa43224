// The API reference in docs/api is generated from the sources with TypeDoc (`pnpm docs:api`).
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { API_DOCS, differingFiles, generateApiDocs } from "../src/api-docs.js";
import { output } from "../src/exec.js";
import { publishedPackages } from "../src/workspace.js";

const out = mkdtempSync(join(tmpdir(), "agent-api-docs-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

/** The Markdown files under `dir`, relative to it. */
function markdownFiles(dir: string): string[] {
	return readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".md"));
}

// The reference is the same on every Node line: the runs of the tests under the other lines
// (tooling/scripts/bootstrap.mjs sets AGENT_NODE_LINE) leave out its minutes of TypeDoc.
describe.skipIf(process.env.AGENT_NODE_LINE !== undefined)("the API reference", () => {
	// TypeDoc converts every published package (about a minute of CPU for eleven): on a shared
	// two-core machine under load that is more than the default two minutes of wall time.
	it("builds with TypeDoc, one page per published package", async () => {
		const result = await generateApiDocs(out);
		expect(result.code, output(result)).toBe(0);
		// TypeDoc prints "Found N errors and M warnings" only when there are some: none is allowed.
		expect(output(result)).not.toMatch(/\[(error|warning)\]|Found \d+ errors/);
		for (const pkg of publishedPackages()) expect(existsSync(join(out, `${pkg.name}.md`)), pkg.name).toBe(true);
		// Types are named (typedoc-plugin.mjs shortens what TypeScript would spell out): a line over
		// 300 characters is an inferred type written inline, which nobody can read.
		const long = markdownFiles(out).flatMap((file) =>
			readFileSync(join(out, file), "utf8")
				.split("\n")
				.flatMap((line, index) => (line.length > 300 ? [`${file}:${index + 1} (${line.length} characters)`] : [])),
		);
		expect(long, "lines over 300 characters").toEqual([]);
		expect(existsSync(join(API_DOCS, "README.md")), "docs/api is committed").toBe(true);
		// Not a failure here: engineers share a working tree, so a fresh reference may include work
		// not committed yet. `pnpm release` refuses a stale docs/api.
		const stale = differingFiles(out, API_DOCS);
		if (stale.length > 0)
			console.warn(`docs/api differs from the sources in ${stale.join(", ")}: run \`pnpm docs:api\``);
		// TypeDoc reads every package's types and those they use (the AI SDK's are large): minutes on a
		// small shared machine while the other release checks run beside it.
	}, 600_000);
});
