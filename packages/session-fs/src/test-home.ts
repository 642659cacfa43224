import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach } from "vitest";
import type { FileStoreOptions } from "./options.js";
import { createFileStore, type FileSessionStore } from "./store.js";

/** A store in a fresh temporary home, for tests; `cleanup` removes the home. */
export function tempStore(options: Omit<FileStoreOptions, "home"> = {}): {
	home: string;
	store: FileSessionStore;
	cleanup(): Promise<void>;
	dropCaches(): Promise<FileSessionStore>;
} {
	const home = mkdtempSync(join(tmpdir(), "session-fs-"));
	return {
		home,
		store: createFileStore({ ...options, home }),
		cleanup: async () => rmSync(home, { recursive: true, force: true }),
		dropCaches: async () => {
			dropCachesOf(home);
			return createFileStore({ ...options, home });
		},
	};
}

/** Deletes every cache of a store's home: each session's metadata.json and the cache directory. */
export function dropCachesOf(home: string): void {
	const sessions = join(home, "sessions");
	for (const id of existsSync(sessions) ? readdirSync(sessions) : []) {
		rmSync(join(sessions, id, "metadata.json"), { force: true });
	}
	rmSync(join(home, "cache"), { recursive: true, force: true });
}

/**
 * For a test file: a `setup(options)` that makes a temporary store and removes it after each test.
 * Call at the top level of the file (it registers an afterEach hook).
 */
export function useTempStores(): (options?: Omit<FileStoreOptions, "home">) => ReturnType<typeof tempStore> {
	const cleanups: Array<() => Promise<void>> = [];
	afterEach(async () => {
		for (const cleanup of cleanups.splice(0)) await cleanup();
	});
	return (options = {}) => {
		const handle = tempStore(options);
		cleanups.push(handle.cleanup);
		return handle;
	};
}

/** A user message record body with one text block. */
export function userMessage(text: string) {
	return { recordType: "message" as const, role: "user" as const, content: [{ type: "text" as const, text }] };
}

export function sha256(bytes: Buffer): string {
	return createHash("sha256").update(bytes).digest("hex");
}
