#!/usr/bin/env node
/**
 * The main job (`npm start`, after the workspace is built): agent-sessions-server on the embedded
 * default store ($AGENT_HOME, else ~/.agent). New sessions use the offline demo model unless an
 * API key (e.g. ANTHROPIC_API_KEY) or config.yaml's default_model says otherwise.
 *
 *   npm start                          http://127.0.0.1:4317 (a free port if 4317 is taken)
 *   npm start -- --port 8080           any agent-sessions-server options pass through
 *   AGENT_HOME=/tmp/demo npm start     another store
 *
 * Stop it with Ctrl+C: running turns finish, then the server exits.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const bin = path.join(root, "apps/server/dist/bin.js");
const DEFAULT_PORT = 4317;

if (!fs.existsSync(bin)) {
	console.error("main job: apps/server is not built; run `npm start` (it builds first) or `pnpm build`");
	process.exit(1);
}

const args = process.argv.slice(2);
const optionValue = (name) => {
	const index = args.findIndex((arg) => arg === name || arg.startsWith(`${name}=`));
	if (index < 0) return undefined;
	return args[index].includes("=") ? args[index].split("=")[1] : args[index + 1];
};

/** Whether host:port can be bound right now. */
function portIsFree(port, host) {
	return new Promise((resolve) => {
		const probe = net.createServer();
		probe.once("error", () => resolve(false));
		probe.listen(port, host, () => probe.close(() => resolve(true)));
	});
}

const host = optionValue("--host") ?? "127.0.0.1";
if (optionValue("--port") === undefined && !(await portIsFree(DEFAULT_PORT, host))) {
	console.log(`main job: port ${DEFAULT_PORT} is in use; asking for a free one`);
	args.push("--port", "0");
}

const child = spawn(process.execPath, [bin, ...args], { stdio: ["inherit", "pipe", "inherit"] });
let buffered = "";
let announced = false;
child.stdout.on("data", (chunk) => {
	process.stdout.write(chunk);
	if (announced) return;
	buffered += chunk;
	// The server prints `listening on URL`, then the store and the model: announce after those.
	const match = /^listening on (http:\/\/\S+)$/m.exec(buffered);
	if (!match || !/^model: /m.test(buffered)) return;
	announced = true;
	const url = new URL(match[1]);
	if (url.hostname === "0.0.0.0" || url.hostname === "[::]") url.hostname = "127.0.0.1";
	process.stdout.write(
		`\nOpen ${url.origin}/ in a browser to browse and talk to the sessions.\n` +
			"Press Ctrl+C to stop (running turns finish first).\n",
	);
});

for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 130 : 1)));
