import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

/** The monorepo's root directory. */
export const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

/** The folders whose packages are published unless they are marked private (tooling/* never is). */
export const PUBLISHED_FOLDERS = ["packages", "apps"] as const;

export interface PackageJson {
	name: string;
	version: string;
	private?: boolean;
	description?: string;
	license?: string;
	type?: string;
	repository?: { type?: string; url?: string; directory?: string };
	keywords?: string[];
	engines?: Record<string, string>;
	sideEffects?: boolean | string[];
	bin?: string | Record<string, string>;
	exports?: Record<string, unknown>;
	main?: string;
	types?: string;
	files?: string[];
	scripts?: Record<string, string>;
	dependencies?: Record<string, string>;
	devDependencies?: Record<string, string>;
	peerDependencies?: Record<string, string>;
	optionalDependencies?: Record<string, string>;
	publishConfig?: Record<string, unknown>;
}

export interface WorkspacePackage {
	name: string;
	version: string;
	/** Absolute path of the package's folder. */
	dir: string;
	/** Its folder relative to the root, e.g. "packages/session-fs". */
	path: string;
	manifest: PackageJson;
}

export function readManifest(dir: string): PackageJson {
	return JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as PackageJson;
}

function packagesIn(folder: string): WorkspacePackage[] {
	const base = join(ROOT, folder);
	return readdirSync(base)
		.map((entry) => join(base, entry))
		.filter((dir) => statSync(dir).isDirectory() && statSync(join(dir, "package.json"), { throwIfNoEntry: false }))
		.map((dir) => {
			const manifest = readManifest(dir);
			return { name: manifest.name, version: manifest.version, dir, path: relative(ROOT, dir), manifest };
		})
		.sort((a, b) => a.path.localeCompare(b.path));
}

/** Every workspace package, tooling included. */
export function workspacePackages(): WorkspacePackage[] {
	return [...PUBLISHED_FOLDERS, "tooling"].flatMap(packagesIn);
}

/** The packages that go to npm: every package under packages/ and apps/ that is not private. */
export function publishedPackages(): WorkspacePackage[] {
	return PUBLISHED_FOLDERS.flatMap(packagesIn).filter((pkg) => !pkg.manifest.private);
}

/** The bin names of a package (a string `bin` is named after the package). */
export function binsOf(manifest: PackageJson): Record<string, string> {
	if (manifest.bin === undefined) return {};
	if (typeof manifest.bin === "string") return { [manifest.name.replace(/^@[^/]+\//, "")]: manifest.bin };
	return manifest.bin;
}

/** This package's folder (tooling/release). */
export const RELEASE_DIR = fileURLToPath(new URL("../", import.meta.url));

/** The JavaScript file of a bin of one of this package's devDependencies, to run with `node`. */
export function toolBin(packageName: string, binName: string): string {
	const dir = join(RELEASE_DIR, "node_modules", packageName);
	const bin = binsOf(readManifest(dir))[binName];
	if (!bin) throw new Error(`${packageName} has no bin ${binName}`);
	return join(dir, bin);
}
