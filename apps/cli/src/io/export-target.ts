import { once } from "node:events";
import fs from "node:fs";
import path from "node:path";
import type { Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { UsageError } from "../errors.js";

/**
 * Where `export -o FILE` writes:
 * - `new`: no file there yet. Written to a temporary file beside it, then linked into place only if
 *   the name is still free, so a failed export leaves nothing and a file that appeared meanwhile is
 *   never replaced. Created 0600: transcripts hold secrets.
 * - `replace`: an existing regular file, with --force. Written beside it and renamed over it; its
 *   permission bits are kept. A symbolic link is never written through: with --force the link
 *   itself is replaced by the export (0600; what it pointed to is left alone), else refused.
 * - `stream`: a FIFO or a character device (a terminal, /dev/null): written straight, never
 *   replaced by a rename.
 * - `descriptor`: /dev/stdout, /dev/stderr, /dev/fd/N or /proc/self/fd/N: this process's own open
 *   file descriptor, written as it is (it may be a pipe, a socket or a file the shell opened).
 */
export type ExportTarget =
	| { kind: "new"; path: string }
	| { kind: "replace"; path: string; mode: number }
	| { kind: "stream"; path: string }
	| { kind: "descriptor"; fd: number };

const OWN_DESCRIPTOR = /^\/(?:dev\/(?:(stdout)|(stderr)|fd\/(\d{1,9}))|proc\/self\/fd\/(\d{1,9}))$/;

/** The file descriptor a /dev/stdout-like path names, if it is one. */
function ownDescriptor(absolute: string): number | undefined {
	const match = OWN_DESCRIPTOR.exec(absolute);
	if (!match) return undefined;
	if (match[1]) return 1;
	if (match[2]) return 2;
	return Number(match[3] ?? match[4]);
}

export interface TargetRules {
	/** Replace an existing regular file (or a symbolic link, itself). */
	force: boolean;
	/**
	 * The store's home directories ($AGENT_HOME: config.yaml, the sessions, the caches; a file
	 * store's own home): nothing is ever written inside them, --force or not.
	 */
	storeHomes?: readonly string[];
}

/** Decides where and how `file` is written, or throws a UsageError that says why it will not be. */
export async function resolveExportTarget(file: string, rules: TargetRules): Promise<ExportTarget> {
	const absolute = path.resolve(file);
	const fd = ownDescriptor(absolute);
	if (fd !== undefined) return { kind: "descriptor", fd };
	const own = await lstatOrUndefined(absolute);
	if (own === undefined) {
		const parent = await realDirectory(path.dirname(absolute), file);
		const target = path.join(parent, path.basename(absolute));
		await refuseInsideStore(target, file, rules);
		return { kind: "new", path: target };
	}
	if (own.isSymbolicLink()) return symbolicLinkTarget(absolute, file, rules);
	// Not a link: what lstat saw is the file itself.
	const stats = own;
	const real = path.join(await realDirectory(path.dirname(absolute), file), path.basename(absolute));
	await refuseInsideStore(real, file, rules);
	if (stats.isDirectory()) throw new UsageError(`${file} is a directory; give a file name for the export`);
	if (stats.isFIFO() || stats.isCharacterDevice()) return { kind: "stream", path: absolute };
	if (!stats.isFile()) {
		throw new UsageError(`${file} is neither a regular file, a FIFO nor a character device; pick another path`);
	}
	if (!rules.force) throw new UsageError(`${file} already exists; pass --force to replace it`);
	return { kind: "replace", path: real, mode: stats.mode & 0o7777 };
}

/**
 * An export never writes through a symbolic link (it could lead anywhere: into the store, over a
 * config file). One that leads into the store's home is refused; any other is replaced itself with
 * --force (its target is left alone), else refused.
 */
async function symbolicLinkTarget(absolute: string, shown: string, rules: TargetRules): Promise<ExportTarget> {
	const link = path.join(await realDirectory(path.dirname(absolute), shown), path.basename(absolute));
	await refuseInsideStore(link, shown, rules);
	const leadsTo = await fs.promises.realpath(absolute).catch(() => undefined);
	if (leadsTo === undefined) {
		throw new UsageError(
			`${shown} is a symbolic link that leads nowhere (a missing file or a loop); remove it or pick another path`,
		);
	}
	await refuseInsideStore(leadsTo, shown, rules);
	if (!rules.force) {
		throw new UsageError(
			`${shown} is a symbolic link, and an export never writes through one; pass --force to replace the link itself (what it points to is left alone), or pick another path`,
		);
	}
	return { kind: "replace", path: link, mode: 0o600 };
}

/** Writes every chunk to the target as its kind says (see ExportTarget); fds 1 and 2 are `io`'s streams. */
export async function writeExport(
	target: ExportTarget,
	chunks: AsyncIterable<string>,
	io: { stdout: Writable; stderr: Writable },
): Promise<void> {
	if (target.kind === "descriptor") {
		if (target.fd === 1 || target.fd === 2) return writeChunks(chunks, target.fd === 1 ? io.stdout : io.stderr);
		return pipeline(chunks, fs.createWriteStream("", { fd: target.fd, autoClose: false }));
	}
	if (target.kind === "stream") return writeStraight(target.path, chunks);
	const temporary = `${target.path}.${process.pid}.${Date.now().toString(36)}.tmp`;
	const mode = target.kind === "replace" ? target.mode : 0o600;
	try {
		await pipeline(chunks, fs.createWriteStream(temporary, { flags: "wx", mode }));
		// The mode given to open is masked by the umask; a replaced file keeps exactly its own.
		if (target.kind === "replace") await fs.promises.chmod(temporary, mode);
		if (target.kind === "replace") await fs.promises.rename(temporary, target.path);
		else await linkIntoPlace(temporary, target.path);
	} catch (error) {
		await fs.promises.rm(temporary, { force: true });
		throw error;
	}
}

/** Writes to a stream the caller keeps open (stdout), waiting for it to drain. */
export async function writeChunks(chunks: AsyncIterable<string>, sink: Writable): Promise<void> {
	for await (const chunk of chunks) {
		if (!sink.write(chunk)) await once(sink, "drain");
	}
}

/** Opens a FIFO or device without creating or truncating anything, and checks it still is one. */
async function writeStraight(file: string, chunks: AsyncIterable<string>): Promise<void> {
	const { O_WRONLY, O_NOCTTY } = fs.constants;
	const handle = await fs.promises.open(file, O_WRONLY | O_NOCTTY);
	let stats: fs.Stats;
	try {
		stats = await handle.stat();
	} catch (error) {
		await handle.close();
		throw error;
	}
	if (!stats.isFIFO() && !stats.isCharacterDevice()) {
		await handle.close();
		throw new UsageError(`${file} changed into a regular file while the export started; run it again`);
	}
	// The stream closes the handle when it ends or fails. (Kept open with autoClose: false, the
	// handle's close() waits on the stream's hold on it for ever: the process then ends with exit
	// code 13, an unsettled top-level await, which only proper-lockfile's signal-exit used to hide.)
	await pipeline(chunks, handle.createWriteStream());
}

/** Moves the finished temporary file to `target` unless something took the name meanwhile. */
async function linkIntoPlace(temporary: string, target: string): Promise<void> {
	try {
		await fs.promises.link(temporary, target);
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === "EEXIST") {
			throw new UsageError(`${target} appeared while exporting; nothing was replaced. Pass --force to replace it`);
		}
		// A filesystem without hard links: the name was checked free moments ago.
		if (code !== "EPERM" && code !== "ENOTSUP" && code !== "EOPNOTSUPP" && code !== "ENOSYS") throw error;
		await fs.promises.rename(temporary, target);
		return;
	}
	await fs.promises.rm(temporary, { force: true });
}

async function refuseInsideStore(realTarget: string, shown: string, rules: TargetRules): Promise<void> {
	for (const home of rules.storeHomes ?? []) {
		const real = await fs.promises.realpath(home).catch(() => path.resolve(home));
		if (realTarget === real || realTarget.startsWith(`${real}${path.sep}`)) {
			throw new UsageError(
				`${shown} is inside the store's home (${real}); an export never writes there (it could destroy a session or the configuration). Pick a path outside it`,
			);
		}
	}
}

async function realDirectory(directory: string, shown: string): Promise<string> {
	try {
		const real = await fs.promises.realpath(directory);
		if ((await fs.promises.stat(real)).isDirectory()) return real;
	} catch {
		// reported below
	}
	throw new UsageError(`the directory of ${shown} does not exist; create it first or pick another path`);
}

function lstatOrUndefined(file: string): Promise<fs.Stats | undefined> {
	return fs.promises.lstat(file).catch((error: NodeJS.ErrnoException) => {
		if (error.code === "ENOENT" || error.code === "ENOTDIR") return undefined;
		throw error;
	});
}
