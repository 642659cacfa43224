"use strict";
/**
 * Where an ES-module-only package's entry is, for the CLI's CommonJS bundle (build.mjs): pi-ai's
 * package.json exports its entry for "import" only, so require.resolve does not find it, and
 * import.meta.resolve does not exist in CommonJS. The package is looked up in the node_modules
 * folders Node searches from the bundle, and its entry read from package.json as Node reads it for
 * an import (conditions "node", "import", "default", in the order the package lists them).
 * Loaded by the bundle only; nothing else uses it.
 */
const fs = require("node:fs");
const path = require("node:path");
const { pathToFileURL } = require("node:url");

const CONDITIONS = new Set(["node", "import", "default"]);

/** The file of `name`'s entry point for an import. */
function esmEntryFile(name) {
	for (const dir of require.resolve.paths(name) ?? []) {
		const root = path.join(dir, name);
		let manifest;
		try {
			manifest = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
		} catch {
			continue;
		}
		const target = entryTarget(manifest);
		if (target === undefined) throw new Error(`the package ${name} in ${root} has no entry point for an import`);
		return path.join(root, target);
	}
	throw new Error(`the package ${name} is not installed beside agent-sessions: reinstall agent-sessions`);
}

/** esmEntryFile as a file: URL, what import.meta.resolve gives. */
function esmEntryUrl(name) {
	return pathToFileURL(esmEntryFile(name)).href;
}

function entryTarget(manifest) {
	const exports = manifest.exports;
	if (exports === undefined) return manifest.main ?? "index.js";
	const isSubpathMap =
		typeof exports === "object" &&
		exports !== null &&
		!Array.isArray(exports) &&
		Object.keys(exports)[0]?.startsWith(".");
	return conditionalTarget(isSubpathMap ? exports["."] : exports);
}

function conditionalTarget(target) {
	if (typeof target === "string") return target;
	if (Array.isArray(target)) {
		for (const candidate of target) {
			const found = conditionalTarget(candidate);
			if (found !== undefined) return found;
		}
		return undefined;
	}
	if (typeof target !== "object" || target === null) return undefined;
	for (const [condition, value] of Object.entries(target)) {
		if (!CONDITIONS.has(condition)) continue;
		const found = conditionalTarget(value);
		if (found !== undefined) return found;
	}
	return undefined;
}

module.exports = { esmEntryFile, esmEntryUrl };
