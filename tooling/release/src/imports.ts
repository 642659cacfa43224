import { readFileSync } from "node:fs";
import { isBuiltin } from "node:module";
import { join } from "node:path";
import ts from "typescript";

/** The package a bare specifier names: "@scope/name/sub" → "@scope/name", "name/sub" → "name". */
export function packageOf(specifier: string): string {
	const parts = specifier.split("/");
	return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : (parts[0] as string);
}

export interface ImportUse {
	/** The package imported ("node" for `/// <reference types="node" />`). */
	name: string;
	/** The first file that imports it, relative to the package root. */
	file: string;
}

/**
 * The other packages the shipped JavaScript and declaration files import (static, dynamic and
 * type imports, re-exports and type references), found with TypeScript's own pre-processor.
 * Relative imports and Node's built-in modules are left out.
 */
export function packagesImported(packageDir: string, files: readonly string[]): Map<string, string> {
	const found = new Map<string, string>();
	for (const file of files) {
		if (!/\.(m|c)?(js|ts)$/.test(file)) continue;
		const info = ts.preProcessFile(readFileSync(join(packageDir, file), "utf8"), true, true);
		const specifiers = [
			...info.importedFiles.map((ref) => ref.fileName),
			...info.typeReferenceDirectives.map((ref) => ref.fileName),
		];
		for (const specifier of specifiers) {
			if (specifier.startsWith(".") || specifier.startsWith("/") || isBuiltin(specifier)) continue;
			const name = packageOf(specifier);
			if (!found.has(name)) found.set(name, file);
		}
	}
	return found;
}
