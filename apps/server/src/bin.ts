#!/usr/bin/env node
import { describeStore } from "@agent/session";
import { resolveHome } from "@agent/session-fs";
import { parseCliArgs, USAGE } from "./cli-args.js";
import { startServer } from "./server.js";
import { SERVER_VERSION } from "./version.js";

async function main(): Promise<void> {
	let args: ReturnType<typeof parseCliArgs>;
	try {
		args = parseCliArgs(process.argv.slice(2));
	} catch (error) {
		process.stderr.write(`agent-sessions-server: ${(error as Error).message}\n\n${USAGE}\n`);
		process.exit(2);
	}
	if (args.help) {
		process.stdout.write(`${USAGE}\n`);
		return;
	}
	if (args.version) {
		process.stdout.write(`${SERVER_VERSION}\n`);
		return;
	}

	let server: Awaited<ReturnType<typeof startServer>>;
	try {
		const { help: _help, version: _version, ...options } = args;
		server = await startServer(options);
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		const message =
			code === "EADDRINUSE"
				? `port ${args.port} on ${args.host} is in use; pick another with --port (0 picks a free one)`
				: (error as Error).message.replace(/^agent-sessions-server: /, "");
		process.stderr.write(`agent-sessions-server: ${message}\n`);
		process.exit(code === "EADDRINUSE" ? 3 : 1);
	}

	process.stdout.write(`listening on ${server.url}\n`);
	process.stdout.write(`store: ${describeStore(server.runtime.store) ?? resolveHome(args.home)}\n`);
	const model = server.runtime.defaultModel();
	process.stdout.write(
		`model: ${model}${model === "demo" ? " (offline demo; set an API key such as ANTHROPIC_API_KEY for real answers)" : ""}\n`,
	);
	if (server.requiresToken) process.stdout.write("API requests need Authorization: Bearer <token>\n");

	// Ctrl+C reaches both this process and a wrapper that forwards it (npm start): a second signal
	// only forces an exit when it comes a while after the first.
	let stoppingSince: number | undefined;
	const stop = (signal: NodeJS.Signals) => {
		if (stoppingSince !== undefined) {
			if (Date.now() - stoppingSince > 1000) process.exit(130);
			return;
		}
		stoppingSince = Date.now();
		server.log("info", "shutdown.signal", {
			signal,
			message: `letting queued and running turns finish for up to ${args.shutdownGraceMs / 1000} s, then interrupting them and stopping`,
		});
		server.close().then(
			() => process.exit(0),
			() => process.exit(1),
		);
	};
	process.on("SIGINT", stop);
	process.on("SIGTERM", stop);
	// SIGHUP reloads config.yaml (users, tokens, limits): a token rotates with no restart. A reload
	// that fails is logged and leaves the settings in force.
	process.on("SIGHUP", () => {
		void server.reload();
	});
}

await main();
