import { parseArgs } from "node:util";
import { checkHome, DEFAULT_HOST, DEFAULT_PORT, DEFAULT_SHUTDOWN_GRACE_MS } from "./server.js";

export interface CliArgs {
	home?: string;
	/** --store: postgres://… or a path / file://… (see @agent/session's chooseStoreLocation). */
	store?: string;
	host: string;
	port: number;
	/** How long running turns may go on after SIGTERM/SIGINT before they are aborted. */
	shutdownGraceMs: number;
	help: boolean;
	version: boolean;
}

export const USAGE = `Usage: agent-sessions-server [--home DIR] [--store URL] [--host ${DEFAULT_HOST}] [--port ${DEFAULT_PORT}] [--shutdown-grace SECONDS]

Serves the session API (HTTP + WebSocket) and the web page over the session store.

Options:
  --home DIR    the store (default $AGENT_HOME, else ~/.agent)
  --store URL   where sessions live instead: postgres://user@host/db (several instances may
                serve one database), file:///path or a directory (default $AGENT_STORE,
                else config.yaml's store:, else the home)
  --host HOST   the address to bind (default ${DEFAULT_HOST}); any non-loopback host needs a token
                in AGENT_SERVER_TOKEN, config.yaml's server.token or server.users
  --port PORT   the port (default ${DEFAULT_PORT}); 0 picks a free one
  --shutdown-grace SECONDS
                on SIGTERM or Ctrl+C, how long running turns may go on before they are
                aborted (default ${DEFAULT_SHUTDOWN_GRACE_MS / 1000}); an aborted turn keeps its partial reply
  --help        show this help
  --version     show the version

SIGHUP reloads config.yaml's users, tokens and limits with no restart.
The first line on stdout is \`listening on http://HOST:PORT\`.`;

/** Parses the command line; throws an Error whose message says what is wrong. */
export function parseCliArgs(argv: readonly string[]): CliArgs {
	const { values } = parseArgs({
		args: [...argv],
		options: {
			home: { type: "string" },
			store: { type: "string" },
			host: { type: "string" },
			port: { type: "string" },
			"shutdown-grace": { type: "string" },
			help: { type: "boolean", short: "h" },
			version: { type: "boolean", short: "v" },
		},
		strict: true,
		allowPositionals: false,
	});
	const port = values.port === undefined ? DEFAULT_PORT : Number(values.port);
	if (!/^\d+$/.test(values.port ?? "0") || !Number.isInteger(port) || port < 0 || port > 65535) {
		throw new Error(`--port must be a whole number from 0 to 65535, not ${JSON.stringify(values.port)}`);
	}
	if (values.home !== undefined) checkHome(values.home, "--home");
	if (values.store !== undefined) checkHome(values.store, "--store");
	const grace = values["shutdown-grace"];
	if (grace !== undefined && !/^\d{1,6}(\.\d{1,3})?$/.test(grace)) {
		throw new Error(`--shutdown-grace must be a number of seconds such as 5 or 0.5, not ${JSON.stringify(grace)}`);
	}
	const host = values.host ?? DEFAULT_HOST;
	if (host.length === 0) throw new Error("--host cannot be empty");
	return {
		...(values.home !== undefined ? { home: values.home } : {}),
		...(values.store !== undefined ? { store: values.store } : {}),
		host,
		port,
		shutdownGraceMs: grace === undefined ? DEFAULT_SHUTDOWN_GRACE_MS : Math.round(Number(grace) * 1000),
		help: values.help ?? false,
		version: values.version ?? false,
	};
}
