#!/usr/bin/env node
/**
 * The release check (`pnpm release`): everything a release needs, ending with the publish in
 * dry-run mode; nothing is uploaded and the working tree is left as it was.
 *
 *   1. build, lint, typecheck and test every package (turbo). The tests include @agent/release's
 *      checks: publint and attw on every packed tarball, the consumer smoke test (npm install of
 *      the tarballs, ESM imports, tsc, the README examples, both bins), `changeset version` on a
 *      scratch copy, and the TypeDoc build of the API reference;
 *   2. docs/api must be what `pnpm docs:api` generates from these sources;
 *   3. `changeset status`: the pending changesets and the versions they will make;
 *   4. `pnpm -r publish --dry-run --no-git-checks`: what would be uploaded, package by package.
 *
 * To release for real: `pnpm changeset version`, review and commit the versions and changelogs,
 * run `pnpm release` on that commit, then `pnpm changeset publish` (publishes the versions not yet
 * on npm and tags them) and push the tags.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const env = { ...process.env, TURBO_TELEMETRY_DISABLED: "1", DO_NOT_TRACK: "1" };

function step(title) {
	console.log(`\nrelease: ${title}`);
}

function run(command, args, options = {}) {
	const result = spawnSync(command, args, { cwd: root, stdio: "inherit", env, ...options });
	if (result.error) throw result.error;
	return result;
}

function must(command, args, options) {
	const result = run(command, args, options);
	if (result.status !== 0) {
		console.error(`release: \`${command} ${args.join(" ")}\` failed with exit code ${result.status}`);
		process.exit(result.status ?? 1);
	}
	return result;
}

function filesUnder(dir, base = dir) {
	if (!fs.existsSync(dir)) return [];
	return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const file = path.join(dir, entry.name);
		return entry.isDirectory() ? filesUnder(file, base) : [path.relative(base, file)];
	});
}

function differingFiles(a, b) {
	const all = [...new Set([...filesUnder(a), ...filesUnder(b)])].sort();
	return all.filter((file) => {
		const left = path.join(a, file);
		const right = path.join(b, file);
		return !fs.existsSync(left) || !fs.existsSync(right) || !fs.readFileSync(left).equals(fs.readFileSync(right));
	});
}

const dirty = spawnSync("git", ["status", "--porcelain"], { cwd: root, encoding: "utf8" }).stdout.trim();
if (dirty) {
	console.warn(
		"release: the working tree has uncommitted changes; the packages below are built from them, not from a commit",
	);
}

step("build, lint, typecheck and test (the release checks run as @agent/release's tests)");
must("pnpm", ["turbo", "run", "build", "lint", "typecheck", "test", "--concurrency=2", "--output-logs=errors-only"]);

step("docs/api is up to date");
const fresh = fs.mkdtempSync(path.join(os.tmpdir(), "agent-api-docs-"));
try {
	must("pnpm", [
		"--filter",
		"@agent/release",
		"exec",
		"typedoc",
		"--options",
		"typedoc.json",
		"--out",
		fresh,
		"--logLevel",
		"Error",
	]);
	const stale = differingFiles(fresh, path.join(root, "docs/api"));
	if (stale.length > 0) {
		console.error(`release: docs/api is stale (${stale.join(", ")}): run \`pnpm docs:api\` and commit docs/api`);
		process.exit(1);
	}
} finally {
	fs.rmSync(fresh, { recursive: true, force: true });
}

step("pending changesets");
must("pnpm", ["changeset", "status", "--verbose"]);
const pending = fs
	.readdirSync(path.join(root, ".changeset"))
	.filter((file) => file.endsWith(".md") && file !== "README.md");
if (pending.length > 0) {
	console.log(
		`release: ${pending.length} changeset(s) pending: a real release runs \`pnpm changeset version\` and commits first; ` +
			"the dry run below publishes the current versions",
	);
}

step("publish (dry run)");
must("pnpm", ["-r", "publish", "--dry-run", "--no-git-checks", "--access", "public"]);

console.log("\nrelease: every check passed; the dry run published nothing");
