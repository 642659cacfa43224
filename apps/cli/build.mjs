/**
 * Bundles the CLI into dist/cli (part of `pnpm build`, after tsc): one entry file and a chunk per
 * lazily loaded part (each command, the runtime, the LLM stack's callers), so that a command
 * loads a few files instead of hundreds of modules. pi-ai and @agent/interop (with its Markdown
 * and highlighting) stay outside the bundle: dependencies loaded from node_modules, only by the
 * commands that talk to a model or import and export.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const here = path.dirname(fileURLToPath(import.meta.url));
const out = path.join(here, "dist", "cli");
const { version } = JSON.parse(fs.readFileSync(path.join(here, "package.json"), "utf8"));

/**
 * zod re-exports its 60-odd translations of its messages as `z.locales`; the store words its
 * errors itself and zod's default (English) is set by zod from en.js directly. Bundling the
 * others would add 0.5 MB for every command to parse: they are left out.
 */
const englishOnlyZodLocales = {
	name: "english-only-zod-locales",
	setup(builder) {
		builder.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, () => ({
			contents: 'export { default as en } from "./en.js";',
			loader: "js",
		}));
	},
};

/**
 * commander requires node:child_process at load for one thing: running a subcommand that is a
 * separate executable, which this CLI has none of. Loading child_process (with net, dgram and
 * the stream stack it brings) cost every command a few milliseconds of start-up: it is required
 * on first use instead.
 */
const commanderSpawnOnUse = {
	name: "commander-spawn-on-use",
	setup(builder) {
		builder.onLoad({ filter: /[\\/]commander[\\/]lib[\\/]command\.js$/ }, (args) => {
			const source = fs.readFileSync(args.path, "utf8");
			const eager = "const childProcess = require('node:child_process');";
			if (!source.includes(eager)) throw new Error(`commander changed: ${args.path} no longer has ${eager}`);
			const lazy = "const childProcess = { spawn: (...args) => require('node:child_process').spawn(...args) };";
			return { contents: source.replace(eager, lazy), loader: "js" };
		});
	},
};

/**
 * ulid's Node build imports node:crypto when it loads, which costs a read command milliseconds of
 * start-up for ids it never makes; its browser build (the same generator) asks WebCrypto only
 * when the first id is made, and Node has WebCrypto. The bundle takes that one.
 */
const ulidWithoutNodeCrypto = {
	name: "ulid-without-node-crypto",
	setup(builder) {
		builder.onResolve({ filter: /^ulid$/ }, async (args) => {
			if (args.pluginData === "ulid-node-build") return undefined; // the lookup below, resolved by esbuild
			const resolved = await builder.resolve("ulid", {
				kind: args.kind,
				resolveDir: args.resolveDir,
				pluginData: "ulid-node-build",
			});
			const browser = resolved.path.replace(
				/[\\/]dist[\\/]node[\\/]index\.js$/,
				`${path.sep}dist${path.sep}browser${path.sep}index.js`,
			);
			if (browser === resolved.path || !fs.existsSync(browser)) {
				throw new Error(`ulid changed: no browser build beside ${resolved.path}`);
			}
			return { path: browser };
		});
	},
};

fs.rmSync(out, { recursive: true, force: true });
const { metafile } = await build({
	entryPoints: { "agent-sessions": path.join(here, "dist", "bin.js") },
	outdir: out,
	bundle: true,
	splitting: true,
	format: "esm",
	platform: "node",
	target: ["node20"],
	chunkNames: "chunks/[name]-[hash]",
	external: ["@mariozechner/pi-ai", "@agent/interop"],
	// CommonJS dependencies (commander, proper-lockfile, cli-progress) call require() for Node's
	// modules, through esbuild's helper chunk; the banner lands in every chunk, so the require is
	// made on first use (createRequire costs each of the 15 to 20 chunks a command loads).
	banner: {
		js: 'import { createRequire as __createRequire } from "node:module"; let __cjsRequire; const require = (id) => (__cjsRequire ??= __createRequire(import.meta.url))(id);',
	},
	define: { __AGENT_SESSIONS_VERSION__: JSON.stringify(version) },
	legalComments: "none",
	// Not minified: it measured no faster to start (V8 pre-parses either quickly), stack traces
	// read, and the release check finds the bundle's imports of its dependencies.
	plugins: [englishOnlyZodLocales, commanderSpawnOnUse, ulidWithoutNodeCrypto],
	logLevel: "warning",
	metafile: true,
});
// Which modules each chunk holds and imports: src/bundle.test.ts checks that reading commands load
// neither zod nor the LLM stack. Beside the bundle, not in it (and not published).
fs.writeFileSync(path.join(here, "dist", "cli-meta.json"), JSON.stringify(metafile));
