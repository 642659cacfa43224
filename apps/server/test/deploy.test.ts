import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type Copy, DockerfileParser, type Instruction, type JSONInstruction } from "dockerfile-ast";
import { validate } from "dockerfile-utils";
import { afterAll, describe, expect, it } from "vitest";

/**
 * The container recipe and the service unit in deploy/: linted statically on every run (no Docker
 * engine or systemd needed), built or verified by the real tools where they exist. A check that
 * needs a missing tool is skipped with a message saying which; the static checks never are.
 */

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const DEPLOY = path.join(ROOT, "deploy");
const DOCKERFILE = path.join(DEPLOY, "Dockerfile");
const UNIT = path.join(DEPLOY, "agent-sessions-server.service");
const BIN = fileURLToPath(new URL("../dist/bin.js", import.meta.url));
const serverPackage = JSON.parse(fs.readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
	bin: Record<string, string>;
};
const rootPackage = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { packageManager: string };
const temps: string[] = [];
afterAll(() => {
	for (const dir of temps) fs.rmSync(dir, { recursive: true, force: true });
});

function has(tool: string, args: string[]): boolean {
	return spawnSync(tool, args, { stdio: "ignore", timeout: 20_000 }).status === 0;
}

describe("deploy/Dockerfile", () => {
	const text = fs.readFileSync(DOCKERFILE, "utf8");
	const dockerfile = DockerfileParser.parse(text);
	const instructions = dockerfile.getInstructions();
	const froms = dockerfile.getFROMs();
	const finalStart = instructions.indexOf(froms[froms.length - 1] as Instruction);
	const final = instructions.slice(finalStart);
	const all = (keyword: string, within: Instruction[] = instructions) =>
		within.filter((instruction) => instruction.getKeyword() === keyword);
	const json = (instruction: Instruction | undefined) =>
		(instruction as JSONInstruction | undefined)?.getJSONStrings().map((value) => value.getJSONValue()) ?? [];
	const env = new Map(
		all("ENV", final).flatMap((instruction) =>
			instruction.getArguments().map((argument) => argument.getValue().split("=") as [string, string]),
		),
	);

	it("parses with no error or warning of the Dockerfile linter", () => {
		expect(validate(text).map((problem) => `line ${problem.range.start.line + 1}: ${problem.message}`)).toEqual([]);
	});

	it("is multi-stage: a named build stage, and a final stage copying only from it", () => {
		expect(froms.length).toBeGreaterThanOrEqual(2);
		const stages = froms.map((from) => from.getBuildStage());
		expect(stages.every((stage) => stage !== null)).toBe(true);
		for (const copy of all("COPY", final) as Copy[]) {
			const from = copy.getFromFlag()?.getValue();
			expect(from, `final-stage ${copy.getTextContent()} copies from the build, not the context`).toBeDefined();
			expect(stages.slice(0, -1)).toContain(from);
		}
	});

	it("every COPY from the build context names a path that exists in the repository", () => {
		const sources = (all("COPY") as Copy[])
			.filter((copy) => copy.getFromFlag() === null)
			.flatMap((copy) =>
				copy
					.getArguments()
					.slice(0, -1)
					.map((argument) => argument.getValue()),
			);
		expect(sources.length).toBeGreaterThan(0);
		for (const source of sources) expect(fs.existsSync(path.join(ROOT, source)), source).toBe(true);
		const ignored = fs.readFileSync(`${DOCKERFILE}.dockerignore`, "utf8");
		for (const pattern of ["**/node_modules", "**/dist", "tooling/.bootstrap"]) expect(ignored).toContain(pattern);
	});

	it("installs the pnpm the repository pins", () => {
		const pinned = rootPackage.packageManager.replace(/\+.*$/, "");
		expect(
			all("RUN").some((run) => run.getTextContent().includes(`npm install --global --no-fund --no-audit ${pinned}`)),
		).toBe(true);
	});

	it("runs as a user that is not root, keeps AGENT_HOME in a volume, and starts agent-sessions-server", () => {
		const users = all("USER", final).map((user) => user.getArgumentsContent());
		expect(users.length).toBeGreaterThan(0);
		expect(users.at(-1)).not.toMatch(/^(root|0)(:|$)/);
		const home = env.get("AGENT_HOME");
		expect(home).toMatch(/^\//);
		expect(all("VOLUME", final).flatMap(json)).toContain(home);
		const entrypoint = json(all("ENTRYPOINT", final).at(-1));
		const binTarget = serverPackage.bin["agent-sessions-server"]?.replace(/^\.\//, "");
		expect(entrypoint[0]).toBe("node");
		expect(entrypoint[1]).toMatch(new RegExp(`/${binTarget?.replace(/\./g, "\\.")}$`));
		const serverDir = entrypoint[1]?.slice(0, -(binTarget?.length ?? 0) - 1);
		expect((all("COPY", final) as Copy[]).map((copy) => copy.getArguments().at(-1)?.getValue())).toContain(serverDir);
		const command = json(all("CMD", final).at(-1));
		expect(command.slice(command.indexOf("--home"), command.indexOf("--home") + 2)).toEqual(["--home", home]);
		// Listening beyond loopback needs a token: the env file the docs pass to `docker run` names it.
		expect(command.slice(command.indexOf("--host"), command.indexOf("--host") + 2)).toEqual(["--host", "0.0.0.0"]);
		expect(fs.readFileSync(path.join(DEPLOY, "agent-sessions.env.example"), "utf8")).toMatch(/^AGENT_SERVER_TOKEN=/m);
	});

	it("checks health on /healthz of the port it exposes and listens on", () => {
		const port = all("EXPOSE", final).at(-1)?.getArgumentsContent();
		const command = json(all("CMD", final).at(-1));
		expect(command[command.indexOf("--port") + 1]).toBe(port);
		const healthcheck = all("HEALTHCHECK", final).at(-1)?.getTextContent() ?? "";
		expect(healthcheck).toContain(`http://127.0.0.1:${port}/healthz`);
		expect(all("USER", final).length).toBeGreaterThan(0);
	});

	const daemon = has("docker", ["info"]);
	it.skipIf(!daemon)(
		"builds with Docker, and the image answers --version",
		() => {
			const tag = `agent-sessions-server-test:${process.pid}`;
			try {
				execFileSync("docker", ["build", "-f", DOCKERFILE, "-t", tag, ROOT], { stdio: "pipe", timeout: 30 * 60_000 });
				const version = execFileSync("docker", ["run", "--rm", tag, "--version"], { encoding: "utf8" });
				expect(version.trim()).toMatch(/^\d+\.\d+\.\d+/);
				const user = execFileSync("docker", ["image", "inspect", "--format", "{{.Config.User}}", tag], {
					encoding: "utf8",
				});
				expect(user.trim()).toBe("agent");
			} finally {
				spawnSync("docker", ["image", "rm", "-f", tag], { stdio: "ignore" });
			}
		},
		30 * 60_000,
	);
	if (!daemon) {
		it("(the Docker build is skipped: no Docker engine answers `docker info` on this machine; the static checks above ran)", () => {
			expect(daemon).toBe(false);
		});
	}
});

/** An INI-like unit file: section → key → values (a key may repeat). */
function parseUnit(text: string): Map<string, Map<string, string[]>> {
	const sections = new Map<string, Map<string, string[]>>();
	let current: Map<string, string[]> | undefined;
	for (const raw of text.split("\n")) {
		const line = raw.trim();
		if (line === "" || line.startsWith("#") || line.startsWith(";")) continue;
		const section = /^\[(.+)\]$/.exec(line);
		if (section) {
			current = new Map();
			sections.set(section[1] as string, current);
			continue;
		}
		const pair = /^([A-Za-z]+)=(.*)$/.exec(line);
		if (!pair || !current) throw new Error(`not a unit file line: ${raw}`);
		current.set(pair[1] as string, [...(current.get(pair[1] as string) ?? []), pair[2] as string]);
	}
	return sections;
}

describe("deploy/agent-sessions-server.service", () => {
	const text = fs.readFileSync(UNIT, "utf8");
	const unit = parseUnit(text);
	const service = unit.get("Service") ?? new Map<string, string[]>();
	const one = (key: string) => service.get(key)?.at(-1);

	it("has the sections systemd needs and starts agent-sessions-server on its state directory", () => {
		expect([...unit.keys()]).toEqual(["Unit", "Service", "Install"]);
		expect(unit.get("Install")?.get("WantedBy")).toEqual(["multi-user.target"]);
		const exec = (one("ExecStart") ?? "").split(/\s+/);
		expect(exec[0]).toMatch(/^\/.*\/agent-sessions-server$/);
		const home = `/var/lib/${one("StateDirectory")}`;
		expect(exec.slice(exec.indexOf("--home"), exec.indexOf("--home") + 2)).toEqual(["--home", home]);
		expect(service.get("Environment")).toContain(`AGENT_HOME=${home}`);
		expect(one("StateDirectoryMode")).toBe("0700");
	});

	it("reads secrets from an EnvironmentFile and stops with time for the shutdown grace", () => {
		expect(one("EnvironmentFile")).toMatch(/^\//);
		const exec = (one("ExecStart") ?? "").split(/\s+/);
		const grace = Number(exec[exec.indexOf("--shutdown-grace") + 1]);
		expect(grace).toBeGreaterThan(0);
		expect(Number(one("TimeoutStopSec"))).toBeGreaterThan(grace + 5);
		expect(one("KillSignal")).toBe("SIGTERM");
	});

	it("is hardened: no privileges, a read-only system, no home directories, private /tmp and devices, no capabilities", () => {
		for (const [key, value] of [
			["NoNewPrivileges", "yes"],
			["ProtectSystem", "strict"],
			["ProtectHome", "yes"],
			["PrivateTmp", "yes"],
			["PrivateDevices", "yes"],
			["CapabilityBoundingSet", ""],
			["RestrictSUIDSGID", "yes"],
			["UMask", "0077"],
		] as const) {
			expect(one(key), key).toBe(value);
		}
		expect(one("DynamicUser") === "yes" || (one("User") ?? "root") !== "root").toBe(true);
		// V8's JIT writes code pages: MemoryDenyWriteExecute would stop Node at its first function.
		expect(one("MemoryDenyWriteExecute")).not.toBe("yes");
	});

	const analyze = has("systemd-analyze", ["--version"]);
	it.skipIf(!analyze)("passes `systemd-analyze verify`, and `security` rates its exposure OK (below 2)", () => {
		// verify checks that ExecStart's program exists: the copy runs the built bin with this Node.
		const dir = fs.mkdtempSync(path.join(os.tmpdir(), "agent-unit-"));
		temps.push(dir);
		const copy = path.join(dir, "agent-sessions-server.service");
		fs.writeFileSync(copy, text.replace(/^ExecStart=\S+/m, `ExecStart=${process.execPath} ${BIN}`));
		const verify = spawnSync("systemd-analyze", ["verify", copy], { encoding: "utf8" });
		expect(verify.status, verify.stderr).toBe(0);
		expect(verify.stderr.split("\n").filter((line) => line.includes("agent-sessions-server"))).toEqual([]);
		const security = spawnSync("systemd-analyze", ["security", "--offline=yes", "--no-pager", copy], {
			encoding: "utf8",
		});
		const level = /Overall exposure level for agent-sessions-server\.service: ([\d.]+)/.exec(security.stdout);
		expect(level, security.stdout + security.stderr).not.toBeNull();
		expect(Number(level?.[1])).toBeLessThan(2);
	});
	if (!analyze) {
		it("(systemd-analyze verify and security are skipped: systemd-analyze is not installed; the static checks above ran)", () => {
			expect(analyze).toBe(false);
		});
	}
});
