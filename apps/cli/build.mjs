/**
 * Bundles the CLI into dist/cli (part of `pnpm build`, after tsc): one entry file and a chunk per
 * lazily loaded part (each command, the runtime, the LLM stack's callers), so that a command
 * loads a few files instead of hundreds of modules. pi-ai and @agent/interop (with its Markdown
 * and highlighting) stay outside the bundle: dependencies loaded from node_modules, only by the
 * commands that talk to a model or import and export.
 *
 * The bundle is CommonJS. On Node 20 an ES module costs about twice what a CommonJS module costs
 * to load (the ES loader reads each file through fs/promises and links it asynchronously, and the
 * first import() starts that loader): as CommonJS, `list` of an empty store started ~10 ms sooner
 * on a 17 ms `node -e 0`. Node >= 22 also keeps its compiled code (module.enableCompileCache).
 */
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { rolldown } from "rolldown";
import {
	commanderSpawnOnUse,
	englishOnlyZodLocales,
	esmOnlyDependencies,
	ulidWithoutNodeCrypto,
	withoutPgNative,
} from "./build/plugins.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const out = path.join(here, "dist", "cli");
const { version } = JSON.parse(fs.readFileSync(path.join(here, "package.json"), "utf8"));
// @agent/session-pg records its version beside the schema steps it applies (schema-version.ts).
const pgVersion = createRequire(import.meta.url)("@agent/session-pg/package.json").version;

fs.rmSync(out, { recursive: true, force: true });
const bundle = await rolldown({
	input: { "agent-sessions": path.join(here, "dist", "bin.js") },
	platform: "node",
	external: [/^@agent\/interop(\/|$)/],
	transform: {
		define: {
			__AGENT_SESSIONS_VERSION__: JSON.stringify(version),
			__AGENT_SESSION_PG_VERSION__: JSON.stringify(pgVersion),
		},
	},
	plugins: [
		englishOnlyZodLocales,
		commanderSpawnOnUse,
		ulidWithoutNodeCrypto,
		esmOnlyDependencies(["@mariozechner/pi-ai"]),
		withoutPgNative,
	],
	logLevel: "warn",
});
const { output } = await bundle.write({
	dir: out,
	format: "cjs",
	entryFileNames: "[name].cjs",
	chunkFileNames: "chunks/[name]-[hash].cjs",
	// Not minified: it measured no faster to start (V8 pre-parses either quickly), stack traces
	// read, and the release check finds the bundle's imports of its dependencies.
	minify: false,
	// Without JSDoc: a chunk whose text has no import() is compiled with the compile cache
	// (src/compile-cache.ts), and commander's JSDoc types read as one.
	comments: { legal: false, jsdoc: false },
});
await bundle.close();
// CommonJS has no import.meta: a lookup left in the bundle (one the esm-only plugin did not find)
// would fail only when a command reached it. The build fails instead.
for (const file of output) {
	if (file.type === "chunk" && /\bimport\.meta\b/.test(file.code)) {
		throw new Error(`build: dist/cli/${file.fileName} still has import.meta, which CommonJS lacks`);
	}
}
fs.chmodSync(path.join(out, "agent-sessions.cjs"), 0o755);
// Node looks for the package.json around a module at each require (for a package that requires
// itself by name); one beside the chunks ends that search at once instead of three folders up.
fs.writeFileSync(path.join(out, "chunks", "package.json"), `${JSON.stringify({ type: "commonjs" })}\n`);

// Which modules each file of the bundle holds: test/start-up.test.ts checks that reading commands
// load neither zod nor the LLM stack. Beside the bundle, not in it (and not published).
const modulesByFile = Object.fromEntries(
	output
		.filter((file) => file.type === "chunk")
		.map((chunk) => [
			`cli/${chunk.fileName}`,
			Object.entries(chunk.modules)
				.filter(([, module]) => module.renderedLength > 0)
				.map(([id]) => id),
		]),
);
fs.writeFileSync(path.join(here, "dist", "cli-meta.json"), JSON.stringify({ modulesByFile }));
