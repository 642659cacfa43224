import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach } from "vitest";

/**
 * For a test file: a fresh temporary directory before each test, handed to `setUp`, and removed
 * after it. Call at the top level of the file (it registers beforeEach and afterEach hooks).
 */
export function useTempDir(prefix: string, setUp: (path: string) => void): void {
	let path: string | undefined;
	beforeEach(() => {
		path = mkdtempSync(join(tmpdir(), prefix));
		setUp(path);
	});
	afterEach(() => {
		if (path) rmSync(path, { recursive: true, force: true });
		path = undefined;
	});
}
