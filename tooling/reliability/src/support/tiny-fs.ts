import { spawnSync } from "node:child_process";
import { closeSync, mkdirSync, openSync, writeSync } from "node:fs";

/**
 * A tmpfs of `bytes` mounted at `dir`, when this process may mount (root with CAP_SYS_ADMIN);
 * undefined otherwise, so a case can say it skipped the tiny-filesystem part.
 */
export function mountTinyFilesystem(dir: string, bytes: number): { unmount(): void } | undefined {
	mkdirSync(dir, { recursive: true });
	const mounted = spawnSync("mount", ["-t", "tmpfs", "-o", `size=${bytes}`, "tmpfs", dir], { stdio: "ignore" });
	if (mounted.status !== 0) return undefined;
	return { unmount: () => void spawnSync("umount", ["-l", dir], { stdio: "ignore" }) };
}

/** Writes `path` until the filesystem is full; returns the bytes written. */
export function fillFilesystem(path: string): number {
	const fd = openSync(path, "w");
	const chunk = Buffer.alloc(4096, 0x2e);
	let total = 0;
	try {
		for (;;) total += writeSync(fd, chunk);
	} catch {
		return total;
	} finally {
		closeSync(fd);
	}
}
