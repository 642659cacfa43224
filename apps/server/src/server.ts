import http from "node:http";
import type { AddressInfo } from "node:net";
import { AgentSessions, followStoreChanges, joinInstances, type ResolvedModel } from "@agent/session";
import { resolveModel } from "@agent/session/models";
import { getRequestListener } from "@hono/node-server";
import { createApp } from "./app.js";
import { attachEventSockets, type EventSockets } from "./event-sockets.js";
import { createModelCatalog } from "./model-catalog.js";
import { RunningTurns } from "./running-turns.js";
import { type JobRunReport, JobScheduler } from "./scheduler.js";
import { type AccessPolicy, assertSafeBind, checkToken, resolveToken } from "./security.js";
import type { SendBudgetOptions } from "./send-budget.js";
import { Shutdown } from "./shutdown.js";
import { loadWebAssets } from "./web-assets.js";

/**
 * The longest record the server's store decodes: 32 MiB parses in well under a second, so one
 * giant line in a log (written by another tool) never blocks the event loop for seconds; longer
 * lines are reported (GET /records lists them in `problems`) and skipped.
 */
export const SERVER_MAX_LINE_BYTES = 32 << 20;

export const DEFAULT_HOST = "127.0.0.1";
export const DEFAULT_PORT = 4317;

export interface ServerOptions {
	/** The store home (default $AGENT_HOME, else ~/.agent); ignored when `runtime` is given. */
	home?: string;
	/** Where sessions live instead of the home: postgres://… or a path / file://… (--store). */
	store?: string;
	/** Default 127.0.0.1. Any non-loopback host needs a token. */
	host?: string;
	/** Default 4317; 0 picks a free port. */
	port?: number;
	/** A runtime to serve instead of opening one at `home`; the caller owns it. */
	runtime?: AgentSessions;
	/** The bearer token; default $AGENT_SERVER_TOKEN, else config.yaml's server.token. */
	token?: string;
	/** Origins allowed cross-origin; default config.yaml's server.cors_origins (none). */
	corsOrigins?: string[];
	/** Default config.yaml's server.body_limit_bytes. */
	bodyLimitBytes?: number;
	/** Resolves model names the way the runtime does (pass the same resolver given to the runtime). */
	resolveModel?: (name: string) => ResolvedModel;
	/** Directory of the built web page; default dist/web. */
	webRoot?: string;
	/** Start the config's scheduled jobs (default true). */
	scheduleJobs?: boolean;
	env?: NodeJS.ProcessEnv;
	/** Where the server reports scheduled runs and unexpected errors; default stderr. */
	log?: (line: string) => void;
	/** What slow WebSocket readers may hold queued; default 8 MiB per socket, 64 MiB in all. */
	socketBudget?: SendBudgetOptions;
	/** On close, how long running turns may go on before they are aborted (default 5 s). */
	shutdownGraceMs?: number;
	/** Show what other processes write to the store as events (default true; needs a store with `watch`). */
	followStore?: boolean;
}

export const DEFAULT_SHUTDOWN_GRACE_MS = 5000;
/** After the abort, how long the aborted turns get to store their partial reply and release their lease. */
const ABORT_SETTLE_MS = 5000;

export interface RunningServer {
	/** http://HOST:PORT, with the port actually bound. */
	url: string;
	host: string;
	port: number;
	runtime: AgentSessions;
	scheduler: JobScheduler;
	/** Whether API requests need a bearer token. */
	requiresToken: boolean;
	/**
	 * Stops scheduling and taking turns, closes sockets and connections, lets running turns finish
	 * for the grace period, then aborts them (each stores its partial reply, marked aborted) and
	 * resolves once they settled (at most a few seconds more).
	 */
	close(): Promise<void>;
}

/** Opens the runtime (unless given), checks the bind is safe, and listens. Resolves once listening. */
export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
	const host = options.host ?? DEFAULT_HOST;
	const port = options.port ?? DEFAULT_PORT;
	const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
	const ownsRuntime = !options.runtime;
	if (options.home !== undefined) checkHome(options.home, "the home option");
	const runtime =
		options.runtime ??
		(await AgentSessions.open({
			...(options.home !== undefined ? { home: options.home } : {}),
			...(options.store !== undefined ? { storeUrl: options.store } : {}),
			maxLineBytes: SERVER_MAX_LINE_BYTES,
		}));
	const serverConfig = runtime.config.server;
	const token =
		options.token !== undefined
			? checkToken(options.token, "the token")
			: resolveToken(serverConfig.token, options.env ?? process.env);
	assertSafeBind(host, token);
	const policy: AccessPolicy = { token, corsOrigins: options.corsOrigins ?? serverConfig.corsOrigins };
	const shutdown = new Shutdown();
	const instances = await joinInstances(runtime);
	// Writes from other processes (a terminal's `agent-sessions send`, another tool) become events too.
	const follow = options.followStore === false ? undefined : await followStoreChanges(runtime);
	const scheduler = new JobScheduler(
		runtime,
		runtime.config.jobs,
		(report) => logJobRun(log, report),
		shutdown.signal,
		instances.claimTick,
	);

	const storeHome = storeHomeOf(runtime);
	// Subscribed before anything can start a turn, so every turn's text so far is known.
	const turns = new RunningTurns(runtime);
	const app = createApp({
		runtime,
		policy,
		bodyLimitBytes: options.bodyLimitBytes ?? serverConfig.bodyLimitBytes,
		scheduler,
		assets: loadWebAssets(options.webRoot),
		models: createModelCatalog(options.resolveModel ?? resolveModel),
		logError: (error) => log(`agent-sessions-server: request failed: ${(error as Error)?.stack ?? String(error)}`),
		...(storeHome ? { storeHome } : {}),
		shutdown,
	});
	const server = http.createServer(getRequestListener(app.fetch));
	const sockets: EventSockets = attachEventSockets(server, {
		runtime,
		policy,
		...(options.socketBudget ? { budget: options.socketBudget } : {}),
		...(storeHome ? { storeHome } : {}),
		turns,
	});

	await new Promise<void>((resolve, reject) => {
		server.once("error", reject);
		server.listen(port, host, () => {
			server.off("error", reject);
			resolve();
		});
	});
	if (options.scheduleJobs !== false) scheduler.start();

	const bound = (server.address() as AddressInfo).port;
	let closing: Promise<void> | undefined;
	return {
		url: `http://${urlHost(host)}:${bound}`,
		host,
		port: bound,
		runtime,
		scheduler,
		requiresToken: token !== undefined,
		close() {
			closing ??= (async () => {
				shutdown.begin();
				scheduler.stop();
				sockets.close();
				const closed = new Promise<void>((resolve) => server.close(() => resolve()));
				server.closeIdleConnections();
				const graceMs = options.shutdownGraceMs ?? DEFAULT_SHUTDOWN_GRACE_MS;
				if (!(await settlesWithin(runtime.idle(), graceMs))) {
					log(`agent-sessions-server: aborting the turns still running after ${graceMs} ms`);
					shutdown.abort();
					if (!(await settlesWithin(runtime.idle(), ABORT_SETTLE_MS))) {
						log("agent-sessions-server: a turn did not stop after its abort; stopping without it");
					}
				}
				server.closeAllConnections();
				await closed;
				await instances.close();
				await follow?.close();
				turns.close();
				if (ownsRuntime) await settlesWithin(runtime.idle(), ABORT_SETTLE_MS);
			})();
			return closing;
		},
	};
}

/**
 * Refuses an empty home: it would silently mean the default store (~/.agent, not even $AGENT_HOME),
 * which is never what `--home "$UNSET_VARIABLE"` meant.
 */
export function checkHome(home: string, where: string): void {
	if (home.trim().length === 0) {
		throw new Error(
			`${where} cannot be empty; give the store's directory, or leave it out to use $AGENT_HOME (else ~/.agent)`,
		);
	}
}

/** True when `promise` settles within `ms`. */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
	let timer: NodeJS.Timeout | undefined;
	const timeout = new Promise<false>((resolve) => {
		timer = setTimeout(() => resolve(false), ms);
	});
	try {
		return await Promise.race([
			promise.then(
				() => true,
				() => true,
			),
			timeout,
		]);
	} finally {
		clearTimeout(timer);
	}
}

/** The file store's directory, when the runtime runs on one. */
function storeHomeOf(runtime: AgentSessions): string | undefined {
	const home = (runtime.store as { home?: unknown }).home;
	return typeof home === "string" && home.length > 0 ? home : undefined;
}

function urlHost(host: string): string {
	return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
}

function logJobRun(log: (line: string) => void, report: JobRunReport): void {
	if (report.error) {
		log(
			`agent-sessions-server: job ${report.jobId} failed: ${(report.error as Error)?.message ?? String(report.error)}`,
		);
	} else {
		log(`agent-sessions-server: job ${report.jobId} ran in session ${report.sessionId}`);
	}
}
