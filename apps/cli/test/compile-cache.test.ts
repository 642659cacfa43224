import fs from "node:fs";
import module from "node:module";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { cleanEnv, type cliAt, homeWithOneExchange } from "./cli-harness.js";

/**
 * The bin's compile cache (src/compile-cache.ts), on the Node versions that lack Node's own
 * (module.enableCompileCache, Node >= 22.1, which the bin uses instead).
 */
const nodeHasItsOwn = typeof (module as { enableCompileCache?: unknown }).enableCompileCache === "function";

let cli: ReturnType<typeof cliAt>;
let id: string;

beforeAll(async () => {
	({ cli, id } = await homeWithOneExchange());
});

function cacheDir(): string {
	return fs.mkdtempSync(path.join(os.tmpdir(), "compile-cache-"));
}

/** The cache files under `dir` (one per chunk), with their sizes. */
function cached(dir: string): Map<string, number> {
	const found = new Map<string, number>();
	for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
		if (entry.isFile()) found.set(entry.name, fs.statSync(path.join(entry.parentPath, entry.name)).size);
	}
	return found;
}

/** The directory of this install's data (compile-cache/<node version>/<install>). */
function installDir(dir: string): string {
	const versions = path.join(dir, "compile-cache", `${process.version}-${process.arch}`);
	const installs = fs.readdirSync(versions);
	expect(installs).toHaveLength(1);
	return path.join(versions, installs[0] as string);
}

describe.skipIf(nodeHasItsOwn)("the compile cache of the bin's chunks (Node 20)", () => {
	it("is written by a first run and used by the next, whose answers and output are the same", async () => {
		const dir = cacheDir();
		const env = cleanEnv({ NODE_COMPILE_CACHE: dir });
		// context loads pi-ai's model registry with import(): the chunks that import stay uncached and work.
		const runs = [];
		for (let i = 0; i < 3; i++) runs.push(await cli(["context", id, "--json"], { env }));
		for (const run of runs) {
			expect(run.code, run.stderr).toBe(0);
			expect(run.stderr).toBe("");
			expect(run.stdout).toBe(runs[0]?.stdout);
		}
		const files = cached(dir);
		expect(files.size).toBeGreaterThan(3);
		expect([...files.keys()].every((name) => name.endsWith(".cjs.v8"))).toBe(true);
		// An earlier version's chunk in this install's directory goes when new data is written;
		// another install's directory is left alone.
		const install = installDir(dir);
		const other = path.join(path.dirname(install), "another-install");
		fs.mkdirSync(other, { mode: 0o700 });
		for (const where of [install, other]) fs.writeFileSync(path.join(where, "main-OLD.cjs.v8"), "old");
		fs.writeFileSync(path.join(install, ".main-OLD.cjs.v8.1234.tmp"), "a killed run's");
		fs.rmSync(path.join(install, [...files.keys()][0] as string));
		expect((await cli(["context", id, "--json"], { env })).code).toBe(0);
		expect(fs.existsSync(path.join(install, "main-OLD.cjs.v8"))).toBe(false);
		expect(fs.existsSync(path.join(install, ".main-OLD.cjs.v8.1234.tmp"))).toBe(false);
		expect(fs.existsSync(path.join(other, "main-OLD.cjs.v8"))).toBe(true);
		expect(cached(install).size).toBe(files.size);
		const list = await cli(["list", "--json"], { env });
		expect(JSON.parse(list.stdout).map((s: { id: string }) => s.id)).toEqual([id]);
	});

	it("replaces damaged data, and the command runs as without it", async () => {
		const dir = cacheDir();
		const env = cleanEnv({ NODE_COMPILE_CACHE: dir });
		const first = await cli(["show", id], { env });
		expect(first.code, first.stderr).toBe(0);
		const files = [...cached(dir).keys()];
		const damaged = fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
		for (const entry of damaged) fs.writeFileSync(path.join(entry.parentPath, entry.name), "not V8's code cache");
		const again = await cli(["show", id], { env });
		expect(again.code, again.stderr).toBe(0);
		expect(again.stdout).toBe(first.stdout);
		const after = cached(dir);
		expect([...after.keys()].sort()).toEqual(files.sort());
		for (const size of after.values()) expect(size).toBeGreaterThan("not V8's code cache".length);
	});

	it("is not used in a directory others can write to, nor with NODE_DISABLE_COMPILE_CACHE=1", async () => {
		const open = cacheDir();
		fs.chmodSync(open, 0o777);
		const openRun = await cli(["show", id], { env: cleanEnv({ NODE_COMPILE_CACHE: open }) });
		expect(openRun.code, openRun.stderr).toBe(0);
		fs.chmodSync(installDir(open), 0o777);
		const again = await cli(["show", id], { env: cleanEnv({ NODE_COMPILE_CACHE: open }) });
		expect(again.code, again.stderr).toBe(0);
		const before = cached(open);
		const third = await cli(["tail", id], { env: cleanEnv({ NODE_COMPILE_CACHE: open }) });
		expect(third.code, third.stderr).toBe(0);
		expect(cached(open)).toEqual(before);

		const off = cacheDir();
		const offRun = await cli(["show", id], {
			env: cleanEnv({ NODE_COMPILE_CACHE: off, NODE_DISABLE_COMPILE_CACHE: "1" }),
		});
		expect(offRun.code, offRun.stderr).toBe(0);
		expect(cached(off).size).toBe(0);
	});
});
