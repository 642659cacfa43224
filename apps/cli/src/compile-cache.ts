import fs from "node:fs";
import Module from "node:module";
import os from "node:os";
import path from "node:path";
import vm from "node:vm";

/**
 * V8's code cache for the bundle's chunks on Node versions without module.enableCompileCache
 * (Node 20): compiling the ~300 KB of JavaScript a command loads, and the functions it then runs,
 * was about 6 ms of every command (a 17 ms `node -e 0`), and V8 can start from code it compiled
 * before. Node >= 22.1 does this itself (bin.ts turns it on); this is the same for Node 20, where
 * no library fits: v8-compile-cache, the one that did this, breaks import() in what it compiles.
 * So does any vm.Script on Node 20 once made from cached data (its loader for import() is lost),
 * which is why a chunk with an import() in its text (those that load pi-ai or @agent/interop) is
 * left to Node's own loader, uncached.
 *
 * Each chunk is compiled as Node's loader compiles a CommonJS module (wrapped in a function of
 * exports, require, module, __filename and __dirname), with the cached data of an earlier run
 * when there is some. Chunks compiled without usable data have their code (with the functions the
 * run compiled) written when the process exits, one file per chunk (whose name carries a hash of
 * its content), by a temporary file and a rename. V8 checks that data was made by the same V8,
 * with the same flags, from the same source, and rejects any other (then the chunk is compiled as
 * usual, and the data replaced); the data of chunks the bundle no longer has (an earlier version's)
 * is removed when new data is written. The directory is the user's own ($NODE_COMPILE_CACHE, else
 * $XDG_CACHE_HOME or ~/.cache, then agent-sessions/compile-cache/<node version>/<install>): one
 * that others can write to is not used. NODE_DISABLE_COMPILE_CACHE=1 turns it off, as it does Node's.
 */
export function useCompileCacheFor(chunksDir: string, env: NodeJS.ProcessEnv = process.env): void {
	if (env.NODE_DISABLE_COMPILE_CACHE === "1") return;
	const dir = cacheDirectory(env, chunksDir);
	if (dir === undefined) return;
	const prefix = `${chunksDir}${path.sep}`;
	const toSave: { script: vm.Script; file: string }[] = [];
	const loader = Module.prototype as unknown as CompilingModule;
	const compile = loader._compile;
	loader._compile = function (this: CompilingModule, content: string, filename: string) {
		if (!filename.startsWith(prefix) || DYNAMIC_IMPORT.test(content)) return compile.call(this, content, filename);
		const file = path.join(dir, `${path.basename(filename)}.v8`);
		const cachedData = readCache(file);
		const script = new vm.Script(`${WRAPPER_START}${content}${WRAPPER_END}`, {
			filename,
			...(cachedData === undefined ? {} : { cachedData }),
		});
		if (cachedData === undefined || script.cachedDataRejected === true) toSave.push({ script, file });
		const body = script.runInThisContext({ displayErrors: true }) as ModuleBody;
		const require = Module.createRequire(filename);
		return body.call(this.exports, this.exports, require, this, filename, path.dirname(filename));
	};
	process.once("exit", () => {
		if (toSave.length === 0) return;
		for (const { script, file } of toSave) writeCache(dir, file, script.createCachedData());
		forgetOtherChunks(dir, chunksDir);
	});
}

interface CompilingModule {
	exports: unknown;
	_compile(content: string, filename: string): unknown;
}

type ModuleBody = (
	exports: unknown,
	require: NodeJS.Require,
	module: CompilingModule,
	filename: string,
	dirname: string,
) => unknown;

/** An import() in a chunk's text (or a comment or string that reads like one: then it is not cached either). */
const DYNAMIC_IMPORT = /\bimport\s*\(/;

const WRAPPER_START = "(function (exports, require, module, __filename, __dirname) { ";
const WRAPPER_END = "\n});";

/** The cache directory, made private when missing; undefined when it cannot be trusted or made. */
function cacheDirectory(env: NodeJS.ProcessEnv, chunksDir: string): string | undefined {
	const base =
		env.NODE_COMPILE_CACHE || path.join(env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache"), "agent-sessions");
	// One directory per installed bundle: two installs (a global and a project's, of different
	// versions) would otherwise remove each other's data on every run (forgetOtherChunks).
	const dir = path.join(base, "compile-cache", `${process.version}-${process.arch}`, nameOf(chunksDir));
	try {
		fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
		const stat = fs.lstatSync(dir);
		const own = typeof process.getuid !== "function" || stat.uid === process.getuid();
		return stat.isDirectory() && own && (stat.mode & 0o022) === 0 ? dir : undefined;
	} catch {
		return undefined;
	}
}

/**
 * Removes the data of chunks this bundle does not have (an earlier version's: chunk names carry a
 * hash of their content), and temporary files a killed run left. Done only by a run that wrote
 * data, so about once per install; a run writing at the same time loses at most its own write.
 */
function forgetOtherChunks(dir: string, chunksDir: string): void {
	try {
		const chunks = new Set(fs.readdirSync(chunksDir));
		for (const name of fs.readdirSync(dir)) {
			const stale = name.endsWith(".v8") ? !chunks.has(name.slice(0, -".v8".length)) : name.endsWith(".tmp");
			if (stale) fs.rmSync(path.join(dir, name), { force: true });
		}
	} catch {
		// a cache left as it is costs only disk space
	}
}

/** A short name for a path (32-bit FNV-1a, in hex): node:crypto alone would cost more than it saves. */
function nameOf(text: string): string {
	let hash = 0x811c9dc5;
	for (let i = 0; i < text.length; i++) {
		hash ^= text.charCodeAt(i);
		hash = Math.imul(hash, 0x01000193) >>> 0;
	}
	return hash.toString(16).padStart(8, "0");
}

function readCache(file: string): Buffer | undefined {
	try {
		return fs.readFileSync(file);
	} catch {
		return undefined;
	}
}

function writeCache(dir: string, file: string, data: Buffer): void {
	const temp = path.join(dir, `.${path.basename(file)}.${process.pid}.tmp`);
	try {
		fs.writeFileSync(temp, data, { mode: 0o600 });
		fs.renameSync(temp, file);
	} catch {
		fs.rmSync(temp, { force: true });
	}
}
