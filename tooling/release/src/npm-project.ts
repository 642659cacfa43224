import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { mustRun, type RunResult, run, userEnv } from "./exec.js";
import type { PackedPackage } from "./pack.js";
import { ROOT, readManifest, toolBin } from "./workspace.js";

/** The @types/node the workspace builds with: a consumer of Node libraries has one too. */
export const TYPES_NODE = readManifest(ROOT).devDependencies?.["@types/node"] ?? "^20";
const TSC = toolBin("typescript", "tsc");

export interface ProjectManifest {
	type: "module" | "commonjs";
	dependencies: Record<string, string>;
}

/**
 * A fresh project outside the workspace, installed with plain `npm install`. Every packed package
 * is pinned to its tarball with `overrides`, so whatever depends on one of ours gets the tarball
 * (none is on the registry), and only what the dependencies need is installed.
 */
export async function npmProject(prefix: string, manifest: ProjectManifest, packed: readonly PackedPackage[]) {
	const dir = mkdtempSync(join(tmpdir(), `agent-${prefix}-`));
	const overrides = Object.fromEntries(packed.map((pkg) => [pkg.name, `file:${pkg.tarball}`]));
	const json = { name: prefix, private: true, ...manifest, overrides };
	writeFileSync(join(dir, "package.json"), `${JSON.stringify(json, null, 2)}\n`);
	await mustRun("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"], {
		cwd: dir,
		env: userEnv(),
		timeoutMs: 8 * 60_000,
	});
	return dir;
}

/** The packages an npm install put in node_modules (by name, once each), from its lock file. */
export function installedPackages(dir: string): string[] {
	const lock = JSON.parse(readFileSync(join(dir, "package-lock.json"), "utf8")) as {
		packages: Record<string, { link?: boolean }>;
	};
	const names = Object.keys(lock.packages)
		.filter((where) => where.startsWith("node_modules/") || where.includes("/node_modules/"))
		.map((where) => where.slice(where.lastIndexOf("node_modules/") + "node_modules/".length));
	return [...new Set(names)].sort();
}

/** Type-checks `files` of the project in strict mode, as a Node project does (`module: nodenext`). */
export function strictTypecheck(
	dir: string,
	files: readonly string[],
	name = "tsconfig.check.json",
): Promise<RunResult> {
	const config = {
		compilerOptions: {
			target: "ES2022",
			lib: ["ES2023"],
			module: "nodenext",
			moduleResolution: "nodenext",
			strict: true,
			noEmit: true,
			skipLibCheck: true,
			types: ["node"],
		},
		files,
	};
	writeFileSync(join(dir, name), JSON.stringify(config, null, 2));
	return run(process.execPath, [TSC, "-p", name], { cwd: dir, env: userEnv() });
}
