#!/usr/bin/env node
// @ts-check
/**
 * Rebundles a library package's build, after tsc (its `build` script: `tsc … && node
 * ../../tooling/scripts/bundle-entries.mjs`): each entry point its package.json `exports` names
 * becomes one ES module, with the code its entries share in `dist/chunks/`, and a lazily imported
 * part (`import("./x.js")`) its own chunk, still loaded only when it is asked for. The declaration
 * files tsc wrote stay as they are; its other .js files are removed.
 *
 * Why: on Node 20 a cold start pays for every ES module it loads (the loader reads, parses and
 * links each one on its own), and the runtime's import was ~140 small modules across four
 * packages. A handful of files holding the same code loads in a fraction of the time, which is
 * what the cold-import goal in `pnpm bench` asks for.
 *
 * Every import of another package (dependencies, peers, the workspace's own packages, node:
 * builtins) stays an import: one package's bundle never holds another's code, so each class (an
 * error class, say) exists once, whichever entry point a program reaches it through.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { rolldown } from "rolldown";

const dir = path.resolve(process.argv[2] ?? process.cwd());
const dist = path.join(dir, "dist");
const manifest = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));

/** @type {Record<string, string>} entry name (its path in dist, without .js) → tsc's file */
const input = {};
for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
	const file = typeof target === "string" ? target : target?.default;
	if (typeof file !== "string" || !file.startsWith("./dist/") || !file.endsWith(".js")) continue;
	const name = file.slice("./dist/".length, -".js".length);
	const source = path.join(dist, `${name}.js`);
	if (!fs.existsSync(source))
		throw new Error(`bundle-entries: exports["${subpath}"] is ${file}, which tsc did not write`);
	input[name] = source;
}
if (Object.keys(input).length === 0) throw new Error(`bundle-entries: ${manifest.name} exports no ./dist/*.js entry`);

const out = fs.mkdtempSync(path.join(os.tmpdir(), "agent-bundle-"));
const bundle = await rolldown({
	input,
	platform: "node",
	// A bare specifier is another package: it stays an import (see above).
	external: (source, _importer, isResolved) =>
		!isResolved && !source.startsWith(".") && !path.isAbsolute(source) && !source.startsWith("\0"),
	logLevel: "warn",
});
await bundle.write({
	dir: out,
	format: "esm",
	entryFileNames: "[name].js",
	chunkFileNames: "chunks/[name]-[hash].js",
	minify: false,
	comments: { legal: true, jsdoc: false },
});
await bundle.close();

// tsc's .js files make way for the bundle; its .d.ts files (what `types` points to) stay.
/** @param {string} folder */
function removeScripts(folder) {
	for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
		const full = path.join(folder, entry.name);
		if (entry.isDirectory()) {
			removeScripts(full);
			if (fs.readdirSync(full).length === 0) fs.rmdirSync(full);
		} else if (/\.js(\.map)?$/.test(entry.name)) {
			fs.rmSync(full);
		}
	}
}
try {
	removeScripts(dist);
	fs.cpSync(out, dist, { recursive: true });
} finally {
	fs.rmSync(out, { recursive: true, force: true });
}
