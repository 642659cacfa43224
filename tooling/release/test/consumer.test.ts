// The consumer smoke test: every packed tarball installed with plain npm into a fresh ES module
// project outside the workspace, imported as ESM and with require(), type-checked with tsc, the
// README programs type-checked strictly and run from the install, and both bins run as a user
// would run them. (consumer-cjs.test.ts: a CommonJS project, and what an install weighs.)
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { readmePrograms, runProgram } from "../src/examples.js";
import { mustRun, output, run, userEnv } from "../src/exec.js";
import { npmProject, strictTypecheck, TYPES_NODE } from "../src/npm-project.js";
import { publishedPackages, ROOT, readManifest, toolBin } from "../src/workspace.js";

const packed = inject("packed");
const packages = publishedPackages();
const TSC = toolBin("typescript", "tsc");

let project = "";
let home = "";
const env = () => userEnv({ AGENT_HOME: home });

beforeAll(async () => {
	const dependencies: Record<string, string> = { "@types/node": TYPES_NODE };
	for (const pkg of packed) dependencies[pkg.name] = `file:${pkg.tarball}`;
	project = await npmProject("consumer", { type: "module", dependencies }, packed);
	home = join(project, "agent-home");
	mkdirSync(home);
}, 10 * 60_000);

afterAll(() => {
	if (project) rmSync(project, { recursive: true, force: true });
});

describe("npm install of the tarballs", () => {
	it("installs each package once, at the packed version, with the internal dependencies from the tarballs", () => {
		for (const pkg of packed) {
			expect(readManifest(join(project, "node_modules", pkg.name)).version).toBe(pkg.version);
		}
		const lock = JSON.parse(readFileSync(join(project, "package-lock.json"), "utf8")) as {
			packages: Record<string, { resolved?: string }>;
		};
		const ours = new Set(packed.map((pkg) => pkg.name));
		for (const [where, entry] of Object.entries(lock.packages)) {
			const name = where.replace(/^.*node_modules\//, "");
			if (!ours.has(name)) continue;
			expect(where, "not nested: the one copy from the tarball serves every dependent").toBe(`node_modules/${name}`);
			expect(entry.resolved ?? "", `${name} comes from its tarball, not the registry`).toMatch(/^file:/);
		}
	});
});

describe("ESM imports from the install", () => {
	it("imports every package by name, with the same exports as the workspace build", async () => {
		const script =
			"const names = process.argv.slice(1); const out = {}; for (const n of names) out[n] = Object.keys(await import(n)).sort(); console.log(JSON.stringify(out));";
		const installed = await mustRun(
			process.execPath,
			["--input-type=module", "-e", script, ...packages.map((pkg) => pkg.name)],
			{ cwd: project, env: env() },
		);
		const built = await mustRun(
			process.execPath,
			[
				"--input-type=module",
				"-e",
				script,
				...packages.map((pkg) => pathToFileURL(join(pkg.dir, pkg.manifest.main ?? "")).href),
			],
			{ cwd: ROOT },
		);
		const byName = JSON.parse(installed.stdout) as Record<string, string[]>;
		const byFile = Object.values(JSON.parse(built.stdout) as Record<string, string[]>);
		packages.forEach((pkg, index) => {
			expect(byName[pkg.name]?.length ?? 0, `${pkg.name} exports something`).toBeGreaterThan(0);
			expect(byName[pkg.name], pkg.name).toEqual(byFile[index]);
		});
	});
});

describe("require() from the install", () => {
	// Every entry of every exports map: ES modules that require() loads (Node >= 20.19), the same
	// module namespace import() gives.
	const entries = packages.flatMap((pkg) =>
		Object.keys(pkg.manifest.exports ?? { ".": "" })
			.filter((subpath) => subpath !== "./package.json")
			.map((subpath) => `${pkg.name}${subpath.slice(1)}`),
	);

	it("loads every entry of every package with require(), with the exports import() gives", async () => {
		const script = `const names = process.argv.slice(1);
const required = {};
for (const name of names) required[name] = Object.keys(require(name)).sort();
Promise.all(names.map((name) => import(name))).then((modules) => {
	const imported = Object.fromEntries(names.map((name, i) => [name, Object.keys(modules[i]).sort()]));
	console.log(JSON.stringify({ required, imported }));
});`;
		const result = await mustRun(process.execPath, ["-e", script, ...entries], { cwd: project, env: env() });
		const { required, imported } = JSON.parse(result.stdout) as Record<string, Record<string, string[]>>;
		for (const entry of entries) {
			expect(required?.[entry]?.length ?? 0, `${entry} exports something`).toBeGreaterThan(0);
			expect(required?.[entry], entry).toEqual(imported?.[entry]);
		}
		expect(result.stderr, "no warning (an experimental require(esm), a top-level await)").toBe("");
	});
});

describe("tsc in the consumer project", () => {
	// Each line needs the package's own types *and* those it re-uses from the packages it depends
	// on: a type that failed to resolve would be `any`, and the Assert line or a @ts-expect-error fails.
	const consumer = `import { estimateContextTokens, shouldCompact } from "@agent/compaction";
import { detectFormat, importPaths } from "@agent/interop";
import { StoreSession } from "@agent/openai-agents";
import { persistAgent } from "@agent/pi-agent";
import { AgentSessions } from "@agent/session";
import { newSessionId, type SessionMetadata, type StoredRecord } from "@agent/session-format";
import { createFileStore, FileSessionStore } from "@agent/session-fs";
import { buildProgram, main } from "agent-sessions";
import { startServer } from "agent-sessions-server";
import type { Session } from "@openai/agents-core";

type IsAny<T> = 0 extends 1 & T ? true : false;
type Assert<T extends false> = T;

const store: FileSessionStore = createFileStore({ home: "/tmp/agent-home" });
export const created: Promise<SessionMetadata> = store.create({ name: "typed" });
// @ts-expect-error CreateSessionOptions (from @agent/session-format) has a string name
store.create({ name: 42 });
export const id: string = newSessionId();
export const records: StoredRecord[] = [];
export const tokens: number = estimateContextTokens(records);
export const compactNow: boolean = shouldCompact(tokens, 200_000, { enabled: true, reserveTokens: 16_384 });
// @ts-expect-error the records are StoredRecord[]
estimateContextTokens("not records");
// The adapters' types are the frameworks' own: a StoreSession is the SDK's Session.
export const sdkSession: Session = new StoreSession({ store });
export type PiAgent = Assert<IsAny<Parameters<typeof persistAgent>[0]>>;
export const format: string | undefined = detectFormat(['{"type":"session","version":3}']);
export type ImportStore = Assert<IsAny<Parameters<typeof importPaths>[0]>>;
export type Runtime = Assert<IsAny<Awaited<ReturnType<typeof AgentSessions.open>>>>;
export type Server = Assert<IsAny<Awaited<ReturnType<typeof startServer>>["runtime"]>>;
export type Program = Assert<IsAny<ReturnType<typeof buildProgram>>>;
export const exitCode: Promise<number> = main(["node", "agent-sessions", "--help"], {
	stdin: process.stdin,
	stdout: process.stdout,
	stderr: process.stderr,
	env: process.env,
});
`;

	it.each(["nodenext", "bundler"])("type-checks an import of every package (moduleResolution %s)", async (mode) => {
		const config = {
			compilerOptions: {
				target: "ES2022",
				module: mode === "bundler" ? "preserve" : "nodenext",
				moduleResolution: mode,
				strict: true,
				noEmit: true,
				skipLibCheck: true,
				types: ["node"],
			},
			files: ["consumer.ts"],
		};
		writeFileSync(join(project, "consumer.ts"), consumer);
		writeFileSync(join(project, `tsconfig.${mode}.json`), JSON.stringify(config, null, 2));
		const result = await run(process.execPath, [TSC, "-p", `tsconfig.${mode}.json`], { cwd: project, env: env() });
		expect(result.code, output(result)).toBe(0);
	});
});

describe("the README programs, from the install", () => {
	const programs = readmePrograms();

	it("are the repository's and every library package's with an example", () => {
		expect(programs.map((program) => program.id)).toEqual(
			expect.arrayContaining(["root-runtime", "root-tool", "root-own-loop", "agent-session", "agent-compaction"]),
		);
		expect(programs.length).toBeGreaterThanOrEqual(13);
	});

	it("type-check in strict mode (module nodenext), as they are written", async () => {
		mkdirSync(join(project, "examples"), { recursive: true });
		const files = programs.map((program) => {
			writeFileSync(join(project, "examples", `${program.id}.ts`), program.code);
			return `examples/${program.id}.ts`;
		});
		const result = await strictTypecheck(project, files);
		expect(result.code, output(result)).toBe(0);
	});

	it.each(programs.map((program) => [program.id, program] as const))(
		"%s runs offline and prints what the README shows",
		async (_id, program) => {
			const result = await runProgram(project, program, "esm");
			expect(result.code, output(result)).toBe(0);
			if (program.output !== undefined) expect(result.stdout).toBe(program.output);
		},
	);
});

describe("the agent-sessions bin from the install", () => {
	const cli = (args: string[], input?: string) =>
		run(join(project, "node_modules/.bin/agent-sessions"), args, {
			cwd: project,
			env: env(),
			...(input === undefined ? {} : { input }),
		});

	it("npx agent-sessions --help prints the usage", async () => {
		const result = await run("npx", ["--no", "--", "agent-sessions", "--help"], { cwd: project, env: env() });
		expect(result.code, output(result)).toBe(0);
		expect(result.stdout).toContain("Usage: agent-sessions");
		expect(result.stdout).toContain("create");
	});

	it("--version prints the packed version", async () => {
		const result = await cli(["--version"]);
		expect(result.code, output(result)).toBe(0);
		expect(result.stdout.trim()).toBe(packed.find((pkg) => pkg.name === "agent-sessions")?.version);
	});

	it("creates, appends to, lists and shows a session in a temporary home", async () => {
		const created = await cli(["--home", home, "create", "--name", "smoke test", "--model", "demo"]);
		expect(created.code, output(created)).toBe(0);
		const id = created.stdout.trim();
		expect(id).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);

		const message = {
			recordType: "message",
			role: "user",
			content: [{ type: "text", text: "What pods are running?" }],
		};
		const appended = await cli(["--home", home, "append", id], `${JSON.stringify(message)}\n`);
		expect(appended.code, output(appended)).toBe(0);
		expect(appended.stdout.trim()).toBe("1");

		const listed = await cli(["--home", home, "list", "--json"]);
		expect(listed.code, output(listed)).toBe(0);
		const sessions = JSON.parse(listed.stdout) as { id: string; name?: string; messageCount: number }[];
		expect(sessions.find((session) => session.id === id)).toMatchObject({ name: "smoke test", messageCount: 1 });

		const shown = await cli(["--home", home, "show", id, "--json"]);
		expect(shown.code, output(shown)).toBe(0);
		expect(JSON.parse(shown.stdout)).toMatchObject([{ seq: 1, recordType: "message", role: "user" }]);
	});
});

describe("the agent-sessions-server bin from the install", () => {
	let server: ChildProcess | undefined;
	afterAll(() => {
		server?.kill("SIGKILL");
	});

	it("listens on --port 0, answers /healthz and serves the built web page, and stops on SIGTERM", async () => {
		server = spawn(join(project, "node_modules/.bin/agent-sessions-server"), ["--port", "0", "--home", home], {
			cwd: project,
			env: env(),
			stdio: ["ignore", "pipe", "pipe"],
		});
		const child = server;
		let stderr = "";
		child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
			stderr += chunk;
		});
		const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
		const url = await new Promise<string>((resolve, reject) => {
			let stdout = "";
			const timer = setTimeout(() => reject(new Error(`no "listening on" within 30 s\n${stdout}\n${stderr}`)), 30_000);
			child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
				stdout += chunk;
				const match = /^listening on (http:\/\/\S+)$/m.exec(stdout);
				if (match) {
					clearTimeout(timer);
					resolve(match[1] as string);
				}
			});
			child.on("exit", (code) => reject(new Error(`the server exited with ${code}\n${stdout}\n${stderr}`)));
		});

		const health = await fetch(`${url}/healthz`);
		expect(health.status).toBe(200);
		expect(await health.json()).toEqual({
			ok: true,
			version: packed.find((pkg) => pkg.name === "agent-sessions-server")?.version,
		});
		const page = await fetch(`${url}/`);
		expect(page.status).toBe(200);
		expect(page.headers.get("content-type")).toContain("text/html");

		child.kill("SIGTERM");
		expect(await exited, stderr).toBe(0);
	});
});
