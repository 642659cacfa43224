import { type ContentBlock, LEGACY_TOOL_NAMES } from "@agent/session-format/reading";

/** What a tool does to the file named in its arguments. */
export type FileAccess = "read" | "modify" | "none";

/** Tool name → what it does to files. Tools not in the map are ignored. */
export type FileToolMap = Readonly<Record<string, FileAccess>>;

const CANONICAL_FILE_TOOLS: FileToolMap = { read: "read", write: "modify", edit: "modify", ls: "none" };

/**
 * Spec §7.5.3 step 3: `read` reads; `write` and `edit` modify; the legacy names `read_file`,
 * `write_file` and `list_directory` count as `read`, `write` and `ls` (which touches no file).
 */
export const DEFAULT_FILE_TOOLS: FileToolMap = Object.freeze({
	...CANONICAL_FILE_TOOLS,
	...Object.fromEntries(
		Object.entries(LEGACY_TOOL_NAMES).map(([legacy, canonical]) => [legacy, CANONICAL_FILE_TOOLS[canonical] ?? "none"]),
	),
});

/** Argument names that may hold the file path, tried in order. */
export const DEFAULT_PATH_ARGUMENTS: readonly string[] = ["path", "file_path", "filePath", "file"];

export interface FileOperationOptions {
	/**
	 * Tool name → access; defaults to `DEFAULT_FILE_TOOLS` (`@agent/compaction/files`). Merge your
	 * own over it to extend it.
	 */
	tools?: FileToolMap;
	/** Argument names holding the path; defaults to `DEFAULT_PATH_ARGUMENTS` (`@agent/compaction/files`). */
	pathArguments?: readonly string[];
}

export interface FileOperations {
	readFiles: string[];
	modifiedFiles: string[];
}

/** What extraction needs of a message; ContextMessage and MessageRecord both fit. */
export interface FileOperationMessage {
	readonly role: "user" | "assistant" | "toolResult";
	readonly content: readonly ContentBlock[];
	readonly toolCallId?: string | undefined;
	readonly isError?: boolean | undefined;
}

/**
 * The files read and modified by the tool calls in `messages`. A call whose tool result (in the
 * same messages) is an error touched nothing and is skipped. A file both read and modified is
 * listed only as modified (S7.16). Lists are sorted.
 */
export function extractFileOperations(
	messages: Iterable<FileOperationMessage>,
	options: FileOperationOptions = {},
): FileOperations {
	const tools = options.tools ?? DEFAULT_FILE_TOOLS;
	const pathArguments = options.pathArguments ?? DEFAULT_PATH_ARGUMENTS;
	const list = [...messages];
	const failed = new Set<string>();
	for (const message of list) {
		if (message.role === "toolResult" && message.isError && message.toolCallId) failed.add(message.toolCallId);
	}
	const read = new Set<string>();
	const modified = new Set<string>();
	for (const message of list) {
		if (message.role !== "assistant") continue;
		for (const block of message.content) {
			if (block.type !== "toolCall" || failed.has(block.id)) continue;
			const access = Object.hasOwn(tools, block.name) ? tools[block.name] : undefined;
			if (access !== "read" && access !== "modify") continue;
			const path = pathOf(block.arguments, pathArguments);
			if (path === undefined) continue;
			(access === "read" ? read : modified).add(path);
		}
	}
	return mergeFileOperations({ readFiles: [...read], modifiedFiles: [...modified] });
}

/**
 * Unions file lists (cumulative tracking across compactions, S7.15); a file modified anywhere
 * is only in modifiedFiles (S7.16). Lists are sorted and free of duplicates.
 */
export function mergeFileOperations(...lists: Array<Partial<FileOperations> | undefined>): FileOperations {
	const read = new Set<string>();
	const modified = new Set<string>();
	for (const list of lists) {
		for (const file of list?.readFiles ?? []) read.add(file);
		for (const file of list?.modifiedFiles ?? []) modified.add(file);
	}
	for (const file of modified) read.delete(file);
	return { readFiles: [...read].sort(), modifiedFiles: [...modified].sort() };
}

/** The `<read-files>` / `<modified-files>` tags of spec §7.5.4; empty lists are left out. */
export function formatFileOperations(files: FileOperations): string {
	const parts: string[] = [];
	if (files.readFiles.length > 0) parts.push(`<read-files>\n${files.readFiles.join("\n")}\n</read-files>`);
	if (files.modifiedFiles.length > 0) {
		parts.push(`<modified-files>\n${files.modifiedFiles.join("\n")}\n</modified-files>`);
	}
	return parts.join("\n\n");
}

/** `summary` with the file tags appended after a blank line (or unchanged when there are no files). */
export function appendFileOperations(summary: string, files: FileOperations): string {
	const tags = formatFileOperations(files);
	return tags.length === 0 ? summary : `${summary.trimEnd()}\n\n${tags}`;
}

const TRAILING_FILE_TAGS = /(?:\s*<(read-files|modified-files)>\n[\s\S]*?\n<\/\1>)+\s*$/;

/**
 * `summary` without the file tags at its end. The tags are rebuilt from the cumulative lists at
 * every compaction, so the update prompt gets the previous summary without them.
 */
export function stripFileOperations(summary: string): string {
	return summary.replace(TRAILING_FILE_TAGS, "").trimEnd();
}

function pathOf(args: Record<string, unknown> | undefined, keys: readonly string[]): string | undefined {
	if (!args) return undefined;
	for (const key of keys) {
		const value = args[key];
		if (typeof value === "string" && value.length > 0) return value;
	}
	return undefined;
}
