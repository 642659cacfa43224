// @ts-check

/**
 * @typedef {{ package: string; files: readonly string[] }} KnownCycle
 * @typedef {{ file: string; lines: number }} LongFile
 * @typedef {{ file: string; request: string }} Unresolved
 * @typedef {{ cycles: string[][]; unresolved: Unresolved[]; longFiles: LongFile[]; staleCycles: KnownCycle[]; staleLongFiles: string[] }} Verdict
 */

/**
 * What the package at `pkg` (its path from the root) breaks, after the known exceptions: the
 * cycles and long files not excused, and the exceptions of this package that excuse nothing
 * any more (they are to be removed, so that the list can only shrink).
 * @param {string} pkg
 * @param {{ cycles: string[][]; unresolved: Unresolved[]; longFiles: LongFile[] }} found files relative to the package
 * @param {{ cycles: readonly KnownCycle[]; longFiles: readonly string[] }} known
 * @returns {Verdict}
 */
export function verdict(pkg, found, known) {
	const knownCycles = known.cycles.filter((entry) => entry.package === pkg);
	const knownLong = known.longFiles.filter((file) => file.startsWith(`${pkg}/`));
	/** @param {string[]} cycle */
	const excuse = (cycle) => knownCycles.find((entry) => cycle.every((file) => entry.files.includes(file)));
	const used = new Set(found.cycles.map(excuse).filter((entry) => entry !== undefined));
	const longPaths = new Set(found.longFiles.map(({ file }) => `${pkg}/${file}`));
	return {
		cycles: found.cycles.filter((cycle) => excuse(cycle) === undefined),
		unresolved: found.unresolved,
		longFiles: found.longFiles.filter(({ file }) => !knownLong.includes(`${pkg}/${file}`)),
		staleCycles: knownCycles.filter((entry) => !used.has(entry)),
		staleLongFiles: knownLong.filter((file) => !longPaths.has(file)),
	};
}

/**
 * The verdict in words, one problem a line, each saying what to do; empty when all is well.
 * @param {string} pkg
 * @param {Verdict} result
 * @param {number} limit
 * @param {string} exceptionsFile
 * @returns {string[]}
 */
export function describe(pkg, result, limit, exceptionsFile) {
	return [
		...result.cycles.map(
			(cycle) =>
				`import cycle in ${pkg}: ${[...cycle, cycle[0]].join(" -> ")}. Break it: move what both sides need into a module of its own, or hand it in (a parameter, a context), so the arrows point one way.`,
		),
		...result.unresolved.map(
			({ file, request }) =>
				`${pkg}/${file} imports "${request}", which does not resolve to a file (with the package's tsconfig.json): fix the import, or the cycle check cannot see past it.`,
		),
		...result.longFiles.map(
			({ file, lines }) =>
				`${pkg}/${file} has ${lines} lines (at most ${limit}): split it into files of one concern each (aim for about 300).`,
		),
		...result.staleCycles.map(
			(entry) =>
				`${exceptionsFile} excuses a cycle in ${pkg} (${entry.files.join(", ")}) that is gone: remove the entry.`,
		),
		...result.staleLongFiles.map(
			(file) => `${exceptionsFile} excuses ${file} from the line limit, and it is within it now: remove the entry.`,
		),
	];
}
