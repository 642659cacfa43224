#!/usr/bin/env node
import module from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { useCompileCacheFor } from "./compile-cache.js";

// No top-level await: the published bin is a CommonJS bundle (build.mjs).
async function run(args: string[]): Promise<void> {
	if (args.length === 1 && (args[0] === "--version" || args[0] === "-V")) {
		// The one command that needs nothing else: answer before loading any of the CLI.
		const { CLI_VERSION } = await import("./version.js");
		process.stdout.write(`${CLI_VERSION}\n`);
		return;
	}
	// Compiled code kept between runs: Node's own cache on Node >= 22.1, the bundle's on Node 20.
	const { enableCompileCache } = module as { enableCompileCache?: () => unknown };
	if (enableCompileCache) enableCompileCache();
	else useCompileCacheFor(path.join(path.dirname(fileURLToPath(import.meta.url)), "chunks"));
	// A closed pipe (`agent-sessions show ID | head`) ends the output, not the command: a turn
	// being sent still completes and is stored; a command that only prints stops at its next
	// write (main treats that as success).
	process.stdout.on("error", (error: NodeJS.ErrnoException) => {
		if (error.code !== "EPIPE") throw error;
	});
	const { main } = await import("./main.js");
	process.exitCode = await main(process.argv, {
		// process.stdin is made on first use (a stream, and for a pipe a socket): only the
		// commands that read their input pay for it.
		get stdin() {
			return process.stdin;
		},
		stdout: process.stdout,
		stderr: process.stderr,
		env: process.env,
	});
}

run(process.argv.slice(2)).catch((error: unknown) => {
	// As an uncaught error would: the stack on stderr, exit code 1.
	process.exitCode = 1;
	console.error(error);
});
