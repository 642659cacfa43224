// @ts-check

import { realpathSync } from "node:fs";
import { parseCircular, parseDependencyTree } from "dpdm";
import { sourceFiles } from "./files.mjs";

/**
 * The import cycles among the package's own files: static, dynamic and type-only imports and
 * re-exports all count (a type-only cycle still ties the files' meanings together, and a dynamic
 * import is still an arrow). Each cycle is a list of files relative to `dir`, in import order
 * (the last imports the first). Imports of other packages are not followed into them.
 *
 * dpdm does the parsing and the resolution, with TypeScript's own parser and the package's
 * nearest tsconfig.json (so `./x.js` finds `x.ts`, as NodeNext does). A relative import it cannot
 * resolve is returned in `unresolved`: past it the check would be blind, so it is a problem too.
 * An import of the package's build output (`../dist/index.js`, as process-level tests do) is not:
 * the build is not source, may not exist yet (lint runs before build on a fresh clone), and is
 * never walked (files.mjs skips `dist`).
 * @param {string} dir
 * @returns {Promise<{ cycles: string[][]; unresolved: { file: string; request: string }[] }>}
 */
export async function findCycles(dir) {
	const files = sourceFiles(dir);
	if (files.length === 0) return { cycles: [], unresolved: [] };
	const tree = await parseDependencyTree(files, {
		cwd: dir,
		context: dir,
		transform: false,
		skipDynamicImports: false,
		// Everything outside the package (other packages, through node_modules links or not) is a leaf.
		include: new RegExp(`^${escapeRegExp(realpathSync(dir))}/`),
		exclude: /\/node_modules\//,
		onProgress: () => {},
	});
	const own = new Set(files);
	const unresolved = Object.entries(tree).flatMap(([file, dependencies]) =>
		(dependencies ?? [])
			.filter(
				(dependency) =>
					dependency.id === null && dependency.request.startsWith(".") && !BUILD_OUTPUT.test(dependency.request),
			)
			.map((dependency) => ({ file, request: dependency.request })),
	);
	return {
		cycles: parseCircular(tree, false).filter((cycle) => cycle.every((file) => own.has(file))),
		unresolved,
	};
}

/** A relative request into a build output folder. */
const BUILD_OUTPUT = /(^|\/)dist(\/|$)/;

/** @param {string} text */
function escapeRegExp(text) {
	return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
