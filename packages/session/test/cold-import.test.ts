// What `import("@agent/session")` loads, in a fresh process: the runtime's build (one bundle per
// package entry, tooling/scripts/bundle-entries.mjs) and the store it opens by default, never the
// LLM stack, PostgreSQL's driver, the YAML parser or zod until something needs them. How long the
// import takes is a benchmark row (`pnpm bench`, the cold import section), not a test.
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

const PACKAGE_DIR = fileURLToPath(new URL("..", import.meta.url));

/** The URL of every ES module and builtin the loader loads while `code` runs in the package's folder. */
function modulesLoadedBy(code: string): string[] {
	const dir = mkdtempSync(path.join(tmpdir(), "agent-cold-import-"));
	const hooks = path.join(dir, "hooks.mjs");
	writeFileSync(
		hooks,
		'export async function load(url, context, next) {\n\tprocess.stderr.write("LOADED " + url + "\\n");\n\treturn next(url, context);\n}\n',
	);
	const register = path.join(dir, "register.mjs");
	writeFileSync(
		register,
		`import { register } from "node:module";\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`,
	);
	const child = spawnSync(
		process.execPath,
		["--import", pathToFileURL(register).href, "--input-type=module", "-e", code],
		{
			cwd: PACKAGE_DIR,
			encoding: "utf8",
		},
	);
	expect(child.status, child.stderr).toBe(0);
	return [...child.stderr.matchAll(/^LOADED (\S+)$/gm)].map((match) => match[1] as string);
}

const HEAVY =
	/[\\/]node_modules[\\/](\.pnpm[\\/][^\\/]+[\\/]node_modules[\\/])?(pg|pg-[a-z-]+|yaml|zod|@mariozechner[\\/]pi-ai|typebox|@sinclair[\\/]typebox)[\\/]/;

describe("import('@agent/session')", () => {
	it("loads neither pi-ai, nor pg, nor yaml, nor zod, and a few bundled files of our packages", () => {
		const loaded = modulesLoadedBy('await import("@agent/session");');
		const ours = loaded.filter((url) => /[\\/]packages[\\/][a-z-]+[\\/]dist[\\/]/.test(url));
		// The hook saw the runtime's own entry: without that, the checks below would prove nothing.
		expect(ours.some((url) => /[\\/]session[\\/]dist[\\/]index\.js$/.test(url))).toBe(true);
		expect(loaded.filter((url) => HEAVY.test(url))).toEqual([]);
		// Four packages' entries and their shared chunks; tsc's one-module-per-file build was ~140.
		expect(ours.length).toBeLessThanOrEqual(40);
	});

	it("the check does see them when they are loaded (config.yaml: yaml and zod; the models: pi-ai)", () => {
		const loaded = modulesLoadedBy(
			'const { parseConfig } = await import("@agent/session/config"); parseConfig("compaction:\\n  enabled: true\\n", "config.yaml"); await import("@agent/session/models");',
		);
		const heavy = new Set(loaded.filter((url) => HEAVY.test(url)).map((url) => HEAVY.exec(url)?.[2]));
		expect([...heavy].sort()).toEqual(expect.arrayContaining(["@mariozechner/pi-ai", "yaml", "zod"]));
	});
});
