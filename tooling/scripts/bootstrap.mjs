#!/usr/bin/env node
/**
 * Sets the workspace up on a machine that has only Node and npm, then runs one job:
 *   node tooling/scripts/bootstrap.mjs start [server args...]   (npm start)
 *   node tooling/scripts/bootstrap.mjs test                     (npm test)
 *
 * pnpm comes from the version pinned in package.json's packageManager. When that version is not
 * on the PATH it is installed with npm into tooling/.bootstrap (not globally, so no root is
 * needed); corepack is not used because it fails on old signing keys on some machines.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const [job = "test", ...rest] = process.argv.slice(2);
const env = { ...process.env, TURBO_TELEMETRY_DISABLED: "1", DO_NOT_TRACK: "1" };

function run(command, args, options = {}) {
	const result = spawnSync(command, args, { cwd: root, stdio: "inherit", env, ...options });
	if (result.error) throw result.error;
	return result.status ?? 1;
}

function must(command, args, options) {
	const status = run(command, args, options);
	if (status !== 0) {
		console.error(`bootstrap: \`${command} ${args.join(" ")}\` failed with exit code ${status}`);
		process.exit(status);
	}
}

function pinnedPnpmVersion() {
	const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
	const match = /^pnpm@(\d+\.\d+\.\d+)/.exec(pkg.packageManager ?? "");
	if (!match) throw new Error("package.json has no packageManager pnpm@x.y.z pin");
	return match[1];
}

function ensurePnpm() {
	const version = pinnedPnpmVersion();
	const onPath = spawnSync("pnpm", ["--version"], { encoding: "utf8", env });
	if (onPath.status === 0 && onPath.stdout.trim() === version) return;
	const prefix = path.join(root, "tooling/.bootstrap");
	const bin = path.join(prefix, "node_modules/.bin");
	const local = spawnSync(path.join(bin, "pnpm"), ["--version"], { encoding: "utf8", env });
	if (local.status !== 0 || local.stdout.trim() !== version) {
		console.log(`bootstrap: installing pnpm ${version} into tooling/.bootstrap`);
		fs.mkdirSync(prefix, { recursive: true });
		must("npm", [
			"install",
			"--prefix",
			prefix,
			"--no-save",
			"--no-package-lock",
			"--no-audit",
			"--no-fund",
			`pnpm@${version}`,
		]);
	}
	env.PATH = `${bin}${path.delimiter}${env.PATH ?? ""}`;
}

let aptUpdated = false;

/** Installs Debian packages when we may (root, apt-get); true when they were installed. */
function aptInstall(packages, what) {
	const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
	const hasApt = spawnSync("sh", ["-c", "command -v apt-get"], { env }).status === 0;
	if (!isRoot || !hasApt) return false;
	console.log(`bootstrap: installing ${what}`);
	const quiet = { stdio: ["ignore", "ignore", "inherit"], env: { ...env, DEBIAN_FRONTEND: "noninteractive" } };
	if (!aptUpdated && run("apt-get", ["update"], quiet) !== 0) return false;
	aptUpdated = true;
	return run("apt-get", ["install", "-y", "--no-install-recommends", ...packages], quiet) === 0;
}

/** Debian's chromium for the browser tests; installed when missing and we may use apt-get. */
function ensureChromium() {
	const candidates = [env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"].filter(Boolean);
	const found = candidates.find((candidate) => fs.existsSync(candidate));
	if (found) {
		env.CHROMIUM_PATH = found;
		return;
	}
	if (aptInstall(["chromium"], "Debian's chromium for the browser tests")) {
		env.CHROMIUM_PATH = "/usr/bin/chromium";
		return;
	}
	console.warn(
		"bootstrap: Chromium was not found and could not be installed (needs root and apt-get); " +
			"the browser test will be skipped. Install it with `apt-get install chromium` or set CHROMIUM_PATH.",
	);
}

/**
 * PostgreSQL for the @agent/session-pg tests: AGENT_TEST_PG_URL, a server on 127.0.0.1:5432, or
 * Debian's postgresql binaries (the tests start a private throwaway cluster from them). Installs
 * the package when none of these is there and we may use apt-get; the server it starts is not
 * needed (the tests run their own).
 */
function ensurePostgres() {
	if (env.AGENT_TEST_PG_URL) return;
	const installed = fs.existsSync("/usr/lib/postgresql") && fs.readdirSync("/usr/lib/postgresql").length > 0;
	if (installed) return;
	const listening = spawnSync("sh", ["-c", "command -v pg_isready >/dev/null && pg_isready -q -h 127.0.0.1 -p 5432"], {
		env,
	});
	if (listening.status === 0) return;
	if (aptInstall(["postgresql"], "Debian's postgresql for the PostgreSQL store tests")) return;
	console.warn(
		"bootstrap: PostgreSQL was not found and could not be installed (needs root and apt-get); " +
			"the PostgreSQL store tests will be skipped (under CI=true they fail). Install postgresql or set AGENT_TEST_PG_URL.",
	);
}

/** zsh and fish, whose completion scripts the CLI's tests run in the shells themselves (a few MB). */
function ensureShells() {
	const missing = ["zsh", "fish"].filter(
		(shell) => spawnSync("sh", ["-c", `command -v ${shell}`], { env }).status !== 0,
	);
	if (missing.length === 0 || aptInstall(missing, `${missing.join(" and ")} for the CLI's completion tests`)) return;
	console.warn(
		`bootstrap: ${missing.join(" and ")} not found and could not be installed (needs root and apt-get); ` +
			"the CLI's completion tests for them will be skipped (under CI=true they fail).",
	);
}

/**
 * The other Node lines the tests run on (DESIGN.md: 20, 22 and 24). Their binaries come from the
 * npm registry's `node-<platform>-<arch>` packages (a package that carries the binary), unpacked
 * into tooling/.bootstrap/node-<line>; no other download is needed. AGENT_TEST_NODE_LINES picks
 * the lines ("22 24"; "none" runs only the Node that runs this script).
 */
function otherNodeLines() {
	const current = Number(process.versions.node.split(".")[0]);
	const chosen = env.AGENT_TEST_NODE_LINES ?? "20 22 24";
	if (chosen.trim() === "none") return [];
	return chosen
		.split(/[\s,]+/)
		.filter(Boolean)
		.map(Number)
		.filter((line) => line !== current);
}

/** The bin directory of Node `line` from the registry's binary package, or undefined when it cannot be had. */
function nodeBinOf(line) {
	const dir = path.join(root, "tooling/.bootstrap", `node-${line}`);
	const bin = path.join(dir, "package/bin");
	const check = spawnSync(path.join(bin, "node"), ["--version"], { encoding: "utf8" });
	if (check.status === 0 && check.stdout.startsWith(`v${line}.`)) return bin;
	const name = `node-${process.platform}-${process.arch}@${line}`;
	console.log(`bootstrap: fetching Node ${line} from the npm registry (${name})`);
	fs.rmSync(dir, { recursive: true, force: true });
	fs.mkdirSync(dir, { recursive: true });
	const packed = spawnSync("npm", ["pack", name, "--silent", "--pack-destination", dir], { encoding: "utf8", env });
	const tarball = packed.stdout?.trim().split("\n").pop();
	if (packed.status !== 0 || !tarball) return undefined;
	if (run("tar", ["xzf", path.join(dir, tarball), "-C", dir]) !== 0) return undefined;
	fs.rmSync(path.join(dir, tarball), { force: true });
	return bin;
}

/** Every package's tests again under each other Node line (turbo keys the runs apart by AGENT_NODE_LINE). */
function testOtherNodeLines() {
	for (const line of otherNodeLines()) {
		const bin = nodeBinOf(line);
		if (!bin) {
			const message = `bootstrap: Node ${line} could not be fetched from the npm registry`;
			if (env.CI === "true") {
				console.error(`${message} (CI=true never skips a Node line)`);
				process.exit(1);
			}
			console.warn(`${message}; its test run is skipped`);
			continue;
		}
		console.log(`bootstrap: the tests under Node ${line}`);
		must("pnpm", ["turbo", "run", "test", "--concurrency=2", "--output-logs=errors-only"], {
			env: { ...env, PATH: `${bin}${path.delimiter}${env.PATH ?? ""}`, AGENT_NODE_LINE: String(line) },
		});
	}
}

ensurePnpm();
must("pnpm", ["install", "--frozen-lockfile"]);

if (job === "start") {
	must("pnpm", ["turbo", "run", "build", "--output-logs=errors-only"]);
	process.exit(run(process.execPath, [path.join(root, "tooling/scripts/main-job.mjs"), ...rest]));
} else if (job === "test") {
	ensureChromium();
	ensurePostgres();
	ensureShells();
	must("pnpm", ["turbo", "run", "build", "lint", "typecheck", "test", "--concurrency=2"]);
	must("pnpm", ["turbo", "run", "test:reliability", "--concurrency=1"], {
		env: { ...env, RELIABILITY_PROFILE: env.RELIABILITY_PROFILE ?? "ci" },
	});
	testOtherNodeLines();
	console.log("bootstrap: every build, lint, typecheck and test task passed");
} else {
	console.error(`bootstrap: unknown job ${JSON.stringify(job)}; use "start" or "test"`);
	process.exit(2);
}
