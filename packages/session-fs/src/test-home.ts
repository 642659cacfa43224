import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FileStoreOptions } from "./options.js";
import { createFileStore, type FileSessionStore } from "./store.js";

/** A store in a fresh temporary home, for tests; `cleanup` removes the home. */
export function tempStore(options: Omit<FileStoreOptions, "home"> = {}): {
	home: string;
	store: FileSessionStore;
	cleanup(): Promise<void>;
} {
	const home = mkdtempSync(join(tmpdir(), "session-fs-"));
	return {
		home,
		store: createFileStore({ ...options, home }),
		cleanup: async () => rmSync(home, { recursive: true, force: true }),
	};
}
