#!/usr/bin/env node
import { main } from "./main.js";

// A closed pipe (`agent-sessions show ID | head`) is not an error: stop quietly.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
	if (error.code === "EPIPE") process.exit(0);
	throw error;
});

const code = await main(process.argv, {
	stdin: process.stdin,
	stdout: process.stdout,
	stderr: process.stderr,
	env: process.env,
});
process.exitCode = code;
