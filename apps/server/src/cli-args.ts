import { parseArgs } from "node:util";
import { checkChoice, LOG_FORMATS, LOG_LEVELS, type LogFormat, type LogLevel } from "./log.js";
import { checkHome, DEFAULT_HOST, DEFAULT_PORT, DEFAULT_SHUTDOWN_GRACE_MS, type TurnDeadlines } from "./server.js";
import { DEFAULT_WAIT_FOR_STORE_MS } from "./store-wait.js";

export interface CliArgs extends TurnDeadlines {
	home?: string;
	/** --store: postgres://… or a path / file://… (see @agent/session's chooseStoreLocation). */
	store?: string;
	host: string;
	port: number;
	/** How long queued and running turns may go on after SIGTERM/SIGINT before they are interrupted. */
	shutdownGraceMs: number;
	/** How long /readyz answers 503 before new requests are refused. */
	drainDelayMs: number;
	waitForStoreMs: number;
	logFormat?: LogFormat;
	logLevel?: LogLevel;
	maxQueuedTurns?: number;
	maxConcurrentTurns?: number;
	/** --pg-pool-size and --pg-max-leases (over config.yaml's postgres:). */
	postgres?: { poolSize?: number; maxLeases?: number };
	help: boolean;
	version: boolean;
}

export const USAGE = `Usage: agent-sessions-server [--home DIR] [--store URL] [--host ${DEFAULT_HOST}] [--port ${DEFAULT_PORT}] [options]

Serves the session API (HTTP + WebSocket) and the web page over the session store.

Options:
  --home DIR    the store (default $AGENT_HOME, else ~/.agent)
  --store URL   where sessions live instead: postgres://user@host/db (several instances may
                serve one database), file:///path or a directory (default $AGENT_STORE,
                else config.yaml's store:, else the home)
  --host HOST   the address to bind (default ${DEFAULT_HOST}); any non-loopback host needs a token
                in AGENT_SERVER_TOKEN, config.yaml's server.token or server.users
  --port PORT   the port (default ${DEFAULT_PORT}); 0 picks a free one
  --log-format text|json
                log lines as text (default) or JSON ($AGENT_LOG_FORMAT)
  --log-level debug|info|warn|error
                the least severe lines logged (default info; $AGENT_LOG_LEVEL)
  --wait-for-store SECONDS
                at start, how long to wait for an unreachable store, retrying with backoff
                (default ${DEFAULT_WAIT_FOR_STORE_MS / 1000}); /readyz answers 503 meanwhile
  --drain-delay SECONDS
                on SIGTERM, how long /readyz answers 503 before new requests are refused, so a
                load balancer notices (default 0)
  --shutdown-grace SECONDS
                on SIGTERM or Ctrl+C, how long queued and running turns may go on before they
                are interrupted (default ${DEFAULT_SHUTDOWN_GRACE_MS / 1000}); an interrupted turn keeps what it wrote
  --max-queued-turns N
                turns that may wait behind a session's running one; past it a send gets 429
                (default config.yaml's server.max_queued_turns, else 100)
  --max-concurrent-turns N
                turns this instance runs at once; the others wait, queued (default
                server.max_concurrent_turns, else 64)
  --turn-timeout SECONDS
                the longest a turn may run (else turn_timeout_seconds)
  --model-call-timeout SECONDS
                the longest a model call may go without progress
                (else model_call_timeout_seconds)
  --pg-pool-size N
                PostgreSQL: connections for reads and writes (default config.yaml's
                postgres.pool_size, else 10)
  --pg-max-leases N
                PostgreSQL: sessions whose turns run at once on this instance, one connection
                each (default postgres.max_leases, else 25); each instance opens about
                pool size + max leases + 5 connections (see docs/operations.md)
  --help        show this help
  --version     show the version

SIGHUP reloads config.yaml's users, tokens and limits with no restart.
The first line on stdout is \`listening on http://HOST:PORT\`, once the server serves.`;

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
			"pg-pool-size": { type: "string" },
			"pg-max-leases": { type: "string" },
			"drain-delay": { type: "string" },
			"wait-for-store": { type: "string" },
			"log-format": { type: "string" },
			"log-level": { type: "string" },
			"max-queued-turns": { type: "string" },
			"max-concurrent-turns": { type: "string" },
			"turn-timeout": { type: "string" },
			"model-call-timeout": { type: "string" },
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
	const postgres = {
		...connectionCount(values["pg-pool-size"], "--pg-pool-size", "poolSize"),
		...connectionCount(values["pg-max-leases"], "--pg-max-leases", "maxLeases"),
	};
	const host = values.host ?? DEFAULT_HOST;
	if (host.length === 0) throw new Error("--host cannot be empty");
	const turnTimeoutMs = milliseconds(values["turn-timeout"], "--turn-timeout");
	const modelCallTimeoutMs = milliseconds(values["model-call-timeout"], "--model-call-timeout");
	const maxQueuedTurns = count(values["max-queued-turns"], "--max-queued-turns", 0);
	const maxConcurrentTurns = count(values["max-concurrent-turns"], "--max-concurrent-turns", 1);
	const logFormat = values["log-format"];
	const logLevel = values["log-level"];
	return {
		...(values.home !== undefined ? { home: values.home } : {}),
		...(values.store !== undefined ? { store: values.store } : {}),
		host,
		port,
		shutdownGraceMs: milliseconds(values["shutdown-grace"], "--shutdown-grace") ?? DEFAULT_SHUTDOWN_GRACE_MS,
		drainDelayMs: milliseconds(values["drain-delay"], "--drain-delay") ?? 0,
		waitForStoreMs: milliseconds(values["wait-for-store"], "--wait-for-store") ?? DEFAULT_WAIT_FOR_STORE_MS,
		...(logFormat !== undefined ? { logFormat: checkChoice(logFormat, LOG_FORMATS, "--log-format") } : {}),
		...(logLevel !== undefined ? { logLevel: checkChoice(logLevel, LOG_LEVELS, "--log-level") } : {}),
		...(maxQueuedTurns !== undefined ? { maxQueuedTurns } : {}),
		...(maxConcurrentTurns !== undefined ? { maxConcurrentTurns } : {}),
		...(turnTimeoutMs !== undefined ? { turnTimeoutMs } : {}),
		...(modelCallTimeoutMs !== undefined ? { modelCallTimeoutMs } : {}),
		...(Object.keys(postgres).length > 0 ? { postgres } : {}),
		help: values.help ?? false,
		version: values.version ?? false,
	};
}

/** A number of seconds such as 5 or 0.5, in ms; undefined when the flag is absent. */
function milliseconds(value: string | undefined, flag: string): number | undefined {
	if (value === undefined) return undefined;
	if (!/^\d{1,6}(\.\d{1,3})?$/.test(value)) {
		throw new Error(`${flag} must be a number of seconds such as 5 or 0.5, not ${JSON.stringify(value)}`);
	}
	return Math.round(Number(value) * 1000);
}

function count(value: string | undefined, flag: string, least: number): number | undefined {
	if (value === undefined) return undefined;
	if (!/^\d{1,6}$/.test(value) || Number(value) < least) {
		throw new Error(`${flag} must be a whole number of at least ${least}, not ${JSON.stringify(value)}`);
	}
	return Number(value);
}

function connectionCount<K extends string>(
	value: string | undefined,
	flag: string,
	key: K,
): Partial<Record<K, number>> {
	if (value === undefined) return {};
	const count = Number(value);
	if (!/^\d{1,4}$/.test(value) || count < 1 || count > 1000) {
		throw new Error(`${flag} must be a whole number of connections from 1 to 1000, not ${JSON.stringify(value)}`);
	}
	return { [key]: count } as Partial<Record<K, number>>;
}
