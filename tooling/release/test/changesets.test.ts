// `changeset version` on a scratch copy of the workspace's manifests and pending changesets:
// what a release does first, checked without touching the working tree.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { output, run } from "../src/exec.js";
import { publishedPackages, ROOT, readManifest, workspacePackages } from "../src/workspace.js";

const CHANGESET = join(
	dirname(createRequire(join(ROOT, "package.json")).resolve("@changesets/cli/package.json")),
	"bin.js",
);
const scratch = mkdtempSync(join(tmpdir(), "agent-changesets-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const pending = readdirSync(join(ROOT, ".changeset")).filter((file) => file.endsWith(".md") && file !== "README.md");
const published = new Set(publishedPackages().map((pkg) => pkg.name));

/** The packages a changeset names in its front matter. */
function packagesOf(file: string): string[] {
	const text = readFileSync(join(ROOT, ".changeset", file), "utf8");
	const front = /^---\n([\s\S]*?)\n---\n/.exec(text);
	if (!front) throw new Error(`.changeset/${file} has no front matter`);
	return [...(front[1] as string).matchAll(/^"?([^":]+)"?:\s*(major|minor|patch)\s*$/gm)].map((m) => m[1] as string);
}

describe("changesets", () => {
	it.skipIf(pending.length === 0).each(pending)(
		"%s names published packages only, each with a bump and a description",
		(file) => {
			const names = packagesOf(file);
			expect(names.length).toBeGreaterThan(0);
			for (const name of names) expect(published, `${name} is a published package`).toContain(name);
			expect(
				readFileSync(join(ROOT, ".changeset", file), "utf8")
					.replace(/^---[\s\S]*?---\n/, "")
					.trim(),
			).not.toBe("");
		},
	);

	it("`changeset version` bumps the packages with changesets, writes their changelogs and leaves private ones alone", async () => {
		// A minor change of every published package on top of what is pending: a minor release of a
		// peer (session-pg under session, compaction under the adapters) must not make its dependents
		// major while the dependents' peer ranges still hold it (.changeset/config.json).
		const everyMinor = [...published].map((name) => `"${name}": minor`).join("\n");
		const synthetic = `---\n${everyMinor}\n---\n\nA minor change of every published package (test only).\n`;
		cpSync(join(ROOT, "package.json"), join(scratch, "package.json"));
		cpSync(join(ROOT, "pnpm-workspace.yaml"), join(scratch, "pnpm-workspace.yaml"));
		cpSync(join(ROOT, ".changeset"), join(scratch, ".changeset"), { recursive: true });
		writeFileSync(join(scratch, ".changeset", "zz-every-package-minor.md"), synthetic);
		for (const pkg of workspacePackages()) {
			mkdirSync(join(scratch, pkg.path), { recursive: true });
			cpSync(join(pkg.dir, "package.json"), join(scratch, pkg.path, "package.json"));
			if (existsSync(join(pkg.dir, "CHANGELOG.md"))) {
				cpSync(join(pkg.dir, "CHANGELOG.md"), join(scratch, pkg.path, "CHANGELOG.md"));
			}
		}
		const result = await run(process.execPath, [CHANGESET, "version"], { cwd: scratch, timeoutMs: 120_000 });
		expect(result.code, output(result)).toBe(0);
		expect(readdirSync(join(scratch, ".changeset")).filter((file) => file.endsWith(".md"))).toEqual(["README.md"]);

		const bumped = new Set([...pending.flatMap(packagesOf), ...published]);
		for (const pkg of workspacePackages()) {
			const after = readManifest(join(scratch, pkg.path));
			if (pkg.manifest.private) {
				expect(after.version, `${pkg.name} (private) keeps its version`).toBe(pkg.version);
				expect(existsSync(join(scratch, pkg.path, "CHANGELOG.md")), `${pkg.name} has no changelog`).toBe(false);
				continue;
			}
			if (bumped.has(pkg.name)) {
				expect(after.version, `${pkg.name} is bumped`).not.toBe(pkg.version);
				const major = (version: string) => version.split(".")[0];
				expect(major(after.version), `${pkg.name} ${pkg.version} → ${after.version} is not a major bump`).toBe(
					major(pkg.version),
				);
				expect(readFileSync(join(scratch, pkg.path, "CHANGELOG.md"), "utf8")).toContain(`## ${after.version}`);
			}
			for (const [dependency, range] of Object.entries(after.dependencies ?? {})) {
				if (published.has(dependency)) expect(range, `${pkg.name} → ${dependency}`).toBe("workspace:^");
			}
		}
	});
});
