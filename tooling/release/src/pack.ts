import { join } from "node:path";
import { mustRun } from "./exec.js";
import type { WorkspacePackage } from "./workspace.js";

export interface PackedPackage {
	name: string;
	version: string;
	/** The package's folder relative to the root. */
	path: string;
	/** Absolute path of the .tgz. */
	tarball: string;
	/** The files in the tarball, relative to the package root (package.json, README.md, LICENSE, dist/...). */
	files: string[];
}

/**
 * `pnpm pack` of one package into `destination`: what `pnpm publish` uploads, with `workspace:^`
 * rewritten to the real version range.
 */
export async function packPackage(pkg: WorkspacePackage, destination: string): Promise<PackedPackage> {
	const { stdout } = await mustRun("pnpm", ["pack", "--pack-destination", destination, "--json"], {
		cwd: pkg.dir,
		timeoutMs: 120_000,
	});
	const report = JSON.parse(stdout.slice(stdout.indexOf("{"))) as {
		name: string;
		version: string;
		filename: string;
		files: { path: string }[];
	};
	return {
		name: report.name,
		version: report.version,
		path: pkg.path,
		tarball: report.filename.startsWith("/") ? report.filename : join(destination, report.filename),
		files: report.files.map((file) => file.path).sort(),
	};
}

/** Packs every package, a few at a time. */
export async function packAll(packages: readonly WorkspacePackage[], destination: string): Promise<PackedPackage[]> {
	const packed: PackedPackage[] = [];
	for (let i = 0; i < packages.length; i += 4) {
		packed.push(...(await Promise.all(packages.slice(i, i + 4).map((pkg) => packPackage(pkg, destination)))));
	}
	return packed;
}
