let installed = false;

/**
 * Keeps SIGXFSZ harmless, as Node.js makes it: Node ignores the signal, so a write past a
 * file-size limit (`ulimit -f`) fails with EFBIG and the store reports a clear STORAGE_FAILURE.
 * proper-lockfile's signal-exit undoes that: it listens to SIGXFSZ and, when it is the only
 * listener, re-raises the signal with its default action — killing the process (with a core
 * dump) a moment after the append had already failed cleanly. A listener that does nothing
 * restores Node's behaviour; it is added once, by the first store made in the process.
 */
export function keepFileSizeSignalHarmless(): void {
	if (installed || process.platform === "win32") return;
	installed = true;
	process.on("SIGXFSZ", () => {});
}
