import { createReadStream } from "node:fs";
import { readdir, readFile, stat } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { invalidArgument } from "../errors.js";

/** A file to import, and whether it was named itself (an error when it is not a session) or found in a directory scan. */
export interface SourceFile {
	path: string;
	named: boolean;
}

/**
 * The files to import: each path that is a file, and every `.jsonl` file (and Gemini CLI chat,
 * `session-*.json`, and OpenCode database, `opencode*.db`) under each path that is a directory
 * (recursively, symbolic links not followed), in a stable order.
 */
export async function findSourceFiles(paths: readonly string[]): Promise<SourceFile[]> {
	const out: SourceFile[] = [];
	for (const path of paths) {
		const absolute = resolve(path);
		let info: Awaited<ReturnType<typeof stat>>;
		try {
			info = await stat(absolute);
		} catch (error) {
			throw invalidArgument(
				`cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? error}); check the path`,
				error,
			);
		}
		if (info.isDirectory()) for (const found of await walk(absolute)) out.push({ path: found, named: false });
		else out.push({ path: absolute, named: true });
	}
	const byPath = new Map<string, SourceFile>();
	for (const file of out) {
		const seen = byPath.get(file.path);
		if (!seen) byPath.set(file.path, file);
		else if (file.named) seen.named = true;
	}
	return [...byPath.values()];
}

async function walk(dir: string): Promise<string[]> {
	const entries = await readdir(dir, { withFileTypes: true });
	entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
	const out: string[] = [];
	const names = new Set(entries.map((entry) => entry.name));
	for (const entry of entries) {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) out.push(...(await walk(path)));
		// Gemini CLI migrates a chat it resumes from session-*.json to session-*.jsonl and leaves the old file.
		else if (entry.isFile() && isSessionFileName(entry.name) && !names.has(`${entry.name}l`)) out.push(path);
	}
	return out;
}

/** Session files a directory scan picks up: JSON lines, Gemini CLI's chats (`session-*.json`), OpenCode's databases (`opencode*.db`). */
function isSessionFileName(name: string): boolean {
	return (
		name.endsWith(".jsonl") || (name.startsWith("session-") && name.endsWith(".json")) || /^opencode.*\.db$/.test(name)
	);
}

/**
 * A file's lines, read as a stream (never one string of the whole file). Read only: sources are
 * never modified. A byte order mark at the start is not part of the first line.
 */
export async function readSourceLines(path: string): Promise<string[]> {
	const lines: string[] = [];
	const input = createReadStream(path, { encoding: "utf8" });
	const reader = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
	try {
		for await (const line of reader) lines.push(lines.length === 0 && line.startsWith("\uFEFF") ? line.slice(1) : line);
	} finally {
		reader.close();
		input.destroy();
	}
	return lines;
}

/** What sits beside a fern `session.jsonl`: its metadata.json (parsed) and whether the file is fern's tool log. */
export async function fernSidecars(
	path: string,
): Promise<{ metadata?: unknown; metadataError?: string; isToolLog: boolean }> {
	const dir = dirname(path);
	const name = basename(path);
	if (name === "tools.jsonl") return { isToolLog: await exists(join(dir, "session.jsonl")) };
	if (name !== "session.jsonl") return { isToolLog: false };
	const metadataPath = join(dir, "metadata.json");
	if (!(await exists(metadataPath))) return { isToolLog: false };
	try {
		return { metadata: JSON.parse(await readFile(metadataPath, "utf8")) as unknown, isToolLog: false };
	} catch (error) {
		return { metadataError: `${metadataPath} could not be read (${(error as Error).message})`, isToolLog: false };
	}
}

/** Whether a path exists (a file or anything else). */
export async function exists(path: string): Promise<boolean> {
	try {
		await stat(path);
		return true;
	} catch {
		return false;
	}
}
