// What every published package.json, tarball and README must hold: the publishing rules of
// docs' Conventions, checked on the packages as `pnpm pack` packs them.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { packagesImported } from "../src/imports.js";
import { codeBlocks } from "../src/readme.js";
import { binsOf, publishedPackages, ROOT, workspacePackages } from "../src/workspace.js";

const REPOSITORY = "git+https://github.com/agent-sessions/agent-sessions.git";
const LICENSE = readFileSync(join(ROOT, "LICENSE"), "utf8");
const packages = publishedPackages();
const workspaceNames = new Set(workspacePackages().map((pkg) => pkg.name));
const packed = new Map(inject("packed").map((pkg) => [pkg.name, pkg]));

describe("the published packages", () => {
	it("are the library packages and both apps; tooling is private", () => {
		expect(packages.map((pkg) => pkg.name).sort()).toEqual([
			"@agent/ai-sdk",
			"@agent/compaction",
			"@agent/interop",
			"@agent/langgraph",
			"@agent/markdown",
			"@agent/openai-agents",
			"@agent/pi-agent",
			"@agent/session",
			"@agent/session-format",
			"@agent/session-fs",
			"@agent/session-pg",
			"agent-sessions",
			"agent-sessions-server",
		]);
		for (const pkg of workspacePackages().filter((candidate) => candidate.path.startsWith("tooling/"))) {
			expect(pkg.manifest.private, `${pkg.path} is private`).toBe(true);
		}
	});
});

/**
 * Packages needing more than Node 20: the CLI's bin is a CommonJS bundle that loads pi-ai (ES
 * modules only) with require(esm), which Node 20 has from 20.19 on.
 */
const NODE_RANGE: Record<string, string> = { "agent-sessions": ">=20.19" };

describe.each(packages.map((pkg) => [pkg.name, pkg] as const))("%s", (name, pkg) => {
	const manifest = pkg.manifest;

	it("has the metadata npm shows: version, description, MIT license, repository with directory, keywords, engines", () => {
		expect(manifest.version).toMatch(/^\d+\.\d+\.\d+(-[\w.]+)?$/);
		expect(manifest.description?.length ?? 0, "description").toBeGreaterThan(20);
		expect(manifest.license).toBe("MIT");
		expect(manifest.type).toBe("module");
		expect(manifest.repository).toEqual({ type: "git", url: REPOSITORY, directory: pkg.path });
		expect(manifest.keywords?.length ?? 0, "keywords").toBeGreaterThan(0);
		expect(manifest.engines).toEqual({ node: NODE_RANGE[name] ?? ">=20" });
		if (name.startsWith("@")) expect(manifest.publishConfig?.access, "a scoped package is public").toBe("public");
	});

	it("ships the repository's LICENSE", () => {
		expect(readFileSync(join(pkg.dir, "LICENSE"), "utf8")).toBe(LICENSE);
	});

	it("has an exports map with types first, and main/types for old resolvers", () => {
		const root = manifest.exports?.["."] as Record<string, string> | undefined;
		expect(root, 'exports["."]').toBeDefined();
		expect(Object.keys(root ?? {})[0], "the types condition comes first").toBe("types");
		expect(root?.default).toBe(manifest.main);
		expect(root?.types).toBe(manifest.types);
		for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
			if (typeof target === "object" && target !== null && "types" in target) {
				expect(Object.keys(target)[0], `${subpath}: types first`).toBe("types");
			}
		}
	});

	// ES modules that require() loads too (Node >= 20.19): an `import` condition alone would make
	// require() fail with ERR_PACKAGE_PATH_NOT_EXPORTED, so every entry has `default` and no `import`.
	it("exports every entry under the default condition, so import and require() both find it", () => {
		for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
			if (typeof target !== "object" || target === null) continue;
			expect(Object.keys(target), subpath).toEqual(["types", "default"]);
		}
	});

	it("lists dist only in files", () => {
		for (const entry of manifest.files ?? []) expect(entry).toMatch(/^!?dist(\/|$)/);
		expect(manifest.files).toContain("dist");
	});

	it("declares its side effects: none for a library, the bin for an app", () => {
		const bins = Object.values(binsOf(manifest)).map((bin) => `./${bin.replace(/^\.\//, "")}`);
		if (bins.length === 0) expect(manifest.sideEffects).toBe(false);
		else expect(manifest.sideEffects).toEqual(bins);
		for (const bin of bins) {
			expect(readFileSync(join(pkg.dir, bin), "utf8").startsWith("#!/usr/bin/env node\n"), `${bin} shebang`).toBe(true);
		}
	});

	it("depends on workspace packages with workspace:^ (a peer: workspace:>=0.1.0 <1) and never on private ones", () => {
		// A peer's range spans the 0.x line so that a peer's minor release leaves its dependents' versions
		// alone (README, Releasing; tooling/release/test/changesets.test.ts).
		const expected = {
			dependencies: "workspace:^",
			peerDependencies: "workspace:>=0.1.0 <1",
			optionalDependencies: "workspace:^",
		};
		for (const field of ["dependencies", "peerDependencies", "optionalDependencies"] as const) {
			for (const [dependency, range] of Object.entries(manifest[field] ?? {})) {
				if (!workspaceNames.has(dependency)) continue;
				expect(range, `${field}.${dependency}`).toBe(expected[field]);
				const target = workspacePackages().find((candidate) => candidate.name === dependency);
				expect(target?.manifest.private, `${dependency} is published`).not.toBe(true);
			}
		}
	});

	it("packs package.json, README.md, LICENSE and dist/ only, without tests or source maps", () => {
		const files = packed.get(name)?.files ?? [];
		expect(files).toContain("package.json");
		expect(files).toContain("README.md");
		expect(files).toContain("LICENSE");
		const others = files.filter((file) => !["package.json", "README.md", "LICENSE"].includes(file));
		for (const file of others) expect(file).toMatch(/^dist\//);
		expect(others.filter((file) => /\.test\.|\/test-[^/]*$|\.map$/.test(file))).toEqual([]);
		const targets = [manifest.main, manifest.types, ...Object.values(binsOf(manifest))];
		for (const target of targets) expect(files, `${target} is packed`).toContain(target?.replace(/^\.\//, ""));
	});

	it("ships no file that points to a source map (none is published)", () => {
		const shipped = (packed.get(name)?.files ?? []).filter((file) => /\.(c|m)?(js|ts)$/.test(file));
		const pointing = shipped.filter((file) =>
			/\/\/# sourceMappingURL=/.test(readFileSync(join(pkg.dir, file), "utf8")),
		);
		expect(pointing, "files with a sourceMappingURL").toEqual([]);
	});

	it("declares in dependencies exactly the packages its shipped files import", () => {
		// The web page's bundle (dist/web) runs in a browser and imports nothing; its minified
		// grammars (keyword lists such as "import","indirect") would read as imports.
		const files = (packed.get(name)?.files ?? []).filter((file) => !file.startsWith("dist/web/"));
		const imported = packagesImported(pkg.dir, files);
		imported.delete(name);
		imported.delete("node"); // `/// <reference types="node" />`: the consumer's @types/node
		const declared = { ...manifest.dependencies, ...manifest.peerDependencies, ...manifest.optionalDependencies };
		const undeclared = [...imported].filter(([dependency]) => !(dependency in declared));
		expect(
			undeclared.map(([dependency, file]) => `${dependency} (imported by ${file})`),
			"undeclared",
		).toEqual([]);
		const unused = Object.keys(manifest.dependencies ?? {}).filter((dependency) => !imported.has(dependency));
		expect(unused, "runtime dependencies nothing shipped imports (move them to devDependencies)").toEqual([]);
	});

	it("has a README with an install line and an example", () => {
		const readme = readFileSync(join(pkg.dir, "README.md"), "utf8");
		expect(readme.startsWith(`# ${name}\n`), "the README is titled with the package name").toBe(true);
		const bins = Object.keys(binsOf(manifest));
		const install = bins.length > 0 ? `npm install -g ${name}` : `npm install ${name}`;
		expect(readme, "an install line").toContain(install);
		const blocks = codeBlocks(readme);
		const example = blocks.find(({ lang, code }) =>
			bins.length > 0
				? lang === "sh" && bins.some((bin) => code.includes(`${bin} `))
				: /^(js|ts|javascript|typescript)$/.test(lang) && code.includes(`from "${name}"`),
		);
		expect(example, "a code block that uses the package").toBeDefined();
	});
});
