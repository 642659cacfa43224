// A team puts it under its agent: the runtime for the file store installed with plain npm into a
// fresh CommonJS project (its README programs type-checked strictly as CommonJS and run), and what
// an install weighs: the file store alone, and the runtime without PostgreSQL's driver.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { asCommonJs, readmePrograms, runProgram } from "../src/examples.js";
import { output } from "../src/exec.js";
import { installedPackages, npmProject, strictTypecheck, TYPES_NODE } from "../src/npm-project.js";
import type { PackedPackage } from "../src/pack.js";
import { publishedPackages } from "../src/workspace.js";

const packed = inject("packed");
const tarball = (name: string) => `file:${(packed.find((pkg) => pkg.name === name) as PackedPackage).tarball}`;
const piAiRange =
	publishedPackages().find((pkg) => pkg.name === "@agent/session")?.manifest.peerDependencies?.[
		"@mariozechner/pi-ai"
	] ?? "*";
/** What a team that writes its own loop or uses the runtime on the file store installs (the root README). */
const RUNTIME = ["@agent/session", "@agent/session-fs", "@agent/session-format", "@agent/compaction"];
/** The file store's install may hold at most this many packages (ours included). */
const FILE_STORE_MAX_PACKAGES = 10;

const projects: string[] = [];
afterAll(() => {
	for (const dir of projects) rmSync(dir, { recursive: true, force: true });
});

describe("the runtime for the file store, in a CommonJS project", () => {
	let project = "";
	beforeAll(async () => {
		const dependencies: Record<string, string> = { "@types/node": TYPES_NODE, "@mariozechner/pi-ai": piAiRange };
		for (const name of RUNTIME) dependencies[name] = tarball(name);
		project = await npmProject("consumer-cjs", { type: "commonjs", dependencies }, packed);
		projects.push(project);
	}, 10 * 60_000);

	it("installs no PostgreSQL driver (pg) and no PostgreSQL store", () => {
		const installed = installedPackages(project);
		expect(installed).toContain("@agent/session");
		expect(installed.filter((name) => name === "pg" || name.startsWith("pg-") || name === "@agent/session-pg")).toEqual(
			[],
		);
	});

	// The programs whose packages this project has: the root README's, and those of the runtime's packages.
	const programs = readmePrograms().filter((program) =>
		program.imports.every((name) => RUNTIME.includes(name) || name === "@mariozechner/pi-ai"),
	);

	it("has the root README's programs and the runtime packages' to run", () => {
		expect(programs.map((program) => program.id)).toEqual(
			expect.arrayContaining(["root-runtime", "root-tool", "root-own-loop", "agent-session", "agent-session-fs"]),
		);
	});

	it("type-check in strict mode as CommonJS (module nodenext: require() of the ES modules)", async () => {
		mkdirSync(join(project, "examples"), { recursive: true });
		const files = programs.map((program) => {
			writeFileSync(join(project, "examples", `${program.id}.ts`), asCommonJs(program.code));
			return `examples/${program.id}.ts`;
		});
		const result = await strictTypecheck(project, files);
		expect(result.code, output(result)).toBe(0);
	});

	it.each(programs.map((program) => [program.id, program] as const))(
		"%s runs as CommonJS and prints what the README shows",
		async (_id, program) => {
			const result = await runProgram(project, program, "cjs");
			expect(result.code, output(result)).toBe(0);
			if (program.output !== undefined) expect(result.stdout).toBe(program.output);
		},
	);
});

describe("the file store alone", () => {
	it(
		`installs at most ${FILE_STORE_MAX_PACKAGES} packages: @agent/session-fs and what it needs`,
		async () => {
			const dependencies = { "@agent/session-fs": tarball("@agent/session-fs") };
			const project = await npmProject("file-store", { type: "module", dependencies }, packed);
			projects.push(project);
			const installed = installedPackages(project);
			expect(installed).toEqual(expect.arrayContaining(["@agent/session-fs", "@agent/session-format"]));
			expect(installed.length, installed.join(", ")).toBeLessThanOrEqual(FILE_STORE_MAX_PACKAGES);
		},
		10 * 60_000,
	);
});
