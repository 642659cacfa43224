/**
 * The bundler plugins of the CLI's build (build.mjs): each takes out of a command's start-up
 * something it does not need, or makes an ES-module-only dependency loadable from CommonJS.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ESM_ENTRY_HELPER = fileURLToPath(new URL("./esm-entry.cjs", import.meta.url));

/** Replaces `from` with `to` in a dependency's source, failing the build when `from` is gone. */
function replaceOnce(source, file, from, to) {
	if (!source.includes(from)) throw new Error(`${file} changed: it no longer has ${from}`);
	return source.replace(from, to);
}

/**
 * zod re-exports its 60-odd translations of its messages as `z.locales`; the store words its
 * errors itself and zod's default (English) is set by zod from en.js directly. Bundling the
 * others would add 0.5 MB for every command to parse: they are left out.
 */
export const englishOnlyZodLocales = {
	name: "english-only-zod-locales",
	load(id) {
		if (!/[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/.test(id)) return undefined;
		return 'export { default as en } from "./en.js";';
	},
};

/**
 * commander requires node:child_process at load for one thing: running a subcommand that is a
 * separate executable, which this CLI has none of. Loading child_process (with net, dgram and
 * the stream stack it brings) cost every command a few milliseconds of start-up: it is required
 * on first use instead.
 */
export const commanderSpawnOnUse = {
	name: "commander-spawn-on-use",
	load(id) {
		if (!/[\\/]commander[\\/]lib[\\/]command\.js$/.test(id)) return undefined;
		return replaceOnce(
			fs.readFileSync(id, "utf8"),
			id,
			"const childProcess = require('node:child_process');",
			"const childProcess = { spawn: (...args) => require('node:child_process').spawn(...args) };",
		);
	},
};

/**
 * ulid's Node build imports node:crypto when it loads, which costs a read command milliseconds of
 * start-up for ids it never makes; its browser build (the same generator) asks WebCrypto only
 * when the first id is made, and Node has WebCrypto. The bundle takes that one.
 */
export const ulidWithoutNodeCrypto = {
	name: "ulid-without-node-crypto",
	async resolveId(source, importer, options) {
		if (source !== "ulid") return undefined;
		const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
		if (!resolved) return undefined;
		const browser = resolved.id.replace(
			/[\\/]dist[\\/]node[\\/]index\.(c?js)$/,
			`${path.sep}dist${path.sep}browser${path.sep}index.js`,
		);
		if (browser === resolved.id || !fs.existsSync(browser)) {
			throw new Error(`ulid changed: no browser build beside ${resolved.id}`);
		}
		return browser;
	},
};

/**
 * The bundle is CommonJS (whose modules load several times faster than ES modules on Node 20),
 * but pi-ai ships ES modules only, exporting its entry for "import" alone. Dynamic imports of it
 * stay imports. A static import (the runtime's turn code) becomes a require of its entry file,
 * found at run time (esm-entry.cjs), which Node >= 20.19 loads as an ES module (require(esm)):
 * the same module instance an import gets. The model registry's import.meta.resolve, which
 * CommonJS lacks, is given the same lookup.
 */
export function esmOnlyDependencies(names) {
	const PREFIX = "\0esm-only:";
	return {
		name: "esm-only-dependencies",
		resolveId(source, _importer, options) {
			if (!names.includes(source)) return undefined;
			return options.kind === "dynamic-import" ? { id: source, external: true } : `${PREFIX}${source}`;
		},
		load(id) {
			if (!id.startsWith(PREFIX)) return undefined;
			const name = JSON.stringify(id.slice(PREFIX.length));
			return `const { esmEntryFile } = require(${JSON.stringify(ESM_ENTRY_HELPER)});\nmodule.exports = require(esmEntryFile(${name}));\n`;
		},
		transform(code, id) {
			// The model registry's lookup, in whichever file of @agent/session's bundle holds it.
			if (!/[\\/]session[\\/]dist[\\/]/.test(id) || !code.includes("import.meta.resolve(")) return undefined;
			return code.replaceAll("import.meta.resolve(", `require(${JSON.stringify(ESM_ENTRY_HELPER)}).esmEntryUrl(`);
		},
	};
}

/**
 * pg (the PostgreSQL store's driver, bundled with the runtime) requires pg-native only when its
 * `native` binding is asked for, and treats a failure as "no native binding". The bundle does not
 * ship pg-native: it is a module that fails as an uninstalled one would.
 */
export const withoutPgNative = {
	name: "without-pg-native",
	resolveId(source) {
		return source === "pg-native" ? "\0pg-native-not-bundled" : undefined;
	},
	load(id) {
		if (id !== "\0pg-native-not-bundled") return undefined;
		return 'throw Object.assign(new Error("pg-native is not part of agent-sessions"), { code: "MODULE_NOT_FOUND" });\n';
	},
};
