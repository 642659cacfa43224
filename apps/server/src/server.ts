import http from "node:http";
import type { AddressInfo } from "node:net";
import {
	type AgentConfig,
	AgentSessions,
	type AgentSessionsOptions,
	followStoreChanges,
	joinInstances,
	loadConfig,
	type PgCapacity,
	type ResolvedModel,
} from "@agent/session";
import { resolveModel } from "@agent/session/models";
import { resolveHome } from "@agent/session-fs";
import { getRequestListener } from "@hono/node-server";
import { AccessGuard, type AccessOverrides, accessSettings } from "./access.js";
import { createApp } from "./app.js";
import { underBasePath } from "./base-path.js";
import { reloadConfig } from "./config-reload.js";
import { drainAndClose } from "./drain.js";
import { attachEventSockets, rejectUpgrade } from "./event-sockets.js";
import { InFlight } from "./in-flight.js";
import { createLogger, type Log, type LogFormat, type LogLevel, logSettingsFromEnv } from "./log.js";
import { ServerMetrics } from "./metrics.js";
import { createModelCatalog } from "./model-catalog.js";
import { Readiness } from "./readiness.js";
import { RetentionSchedule } from "./retention.js";
import type { HealthDeps } from "./routes/health.js";
import { RunningTurns } from "./running-turns.js";
import { type JobRunReport, JobScheduler } from "./scheduler.js";
import type { SendBudgetOptions } from "./send-budget.js";
import { SessionOwners } from "./session-owners.js";
import { Shutdown } from "./shutdown.js";
import { SpendLedger } from "./spend-ledger.js";
import { createStartingApp } from "./starting-app.js";
import { DEFAULT_WAIT_FOR_STORE_MS, waitForStore } from "./store-wait.js";
import { watchStore } from "./store-watch.js";
import { startTracing } from "./tracing.js";
import { turnLog } from "./turn-log.js";
import { turnMetrics } from "./turn-metrics.js";
import { watchTurns } from "./turn-watch.js";
import { tokenMatches } from "./users.js";
import { loadWebAssets } from "./web-assets.js";

/**
 * The longest record the server's store decodes: 32 MiB parses in well under a second, so one
 * giant line in a log (written by another tool) never blocks the event loop for seconds; longer
 * lines are reported (GET /records lists them in `problems`) and skipped.
 */
export const SERVER_MAX_LINE_BYTES = 32 << 20;

export const DEFAULT_HOST = "127.0.0.1";
export const DEFAULT_PORT = 4317;
export const DEFAULT_SHUTDOWN_GRACE_MS = 5000;

/**
 * The turn deadlines of the runtime, passed through when given (else config.yaml's
 * turn_timeout_seconds and model_call_timeout_seconds): `turnTimeoutMs`, the longest a turn may
 * run; `modelCallTimeoutMs`, the longest a model call may go without progress. A turn stopped at
 * either is recorded as timed_out.
 */
export type TurnDeadlines = Pick<AgentSessionsOptions, "turnTimeoutMs" | "modelCallTimeoutMs">;

export interface ServerOptions extends TurnDeadlines {
	/** The store home (default $AGENT_HOME, else ~/.agent); ignored when `runtime` is given. */
	home?: string;
	/** Where sessions live instead of the home: postgres://… or a path / file://… (--store). */
	store?: string;
	/** Default 127.0.0.1. Any non-loopback host needs a token. */
	host?: string;
	/** Default 4317; 0 picks a free port. */
	port?: number;
	/** A runtime to serve instead of opening one at `home`; the caller owns it (and its turn limits and deadlines). */
	runtime?: AgentSessions;
	/** The bearer token; default $AGENT_SERVER_TOKEN, else config.yaml's server.token. */
	token?: string;
	/** Origins allowed cross-origin; default config.yaml's server.cors_origins (none). */
	corsOrigins?: string[];
	/** Default config.yaml's server.body_limit_bytes. */
	bodyLimitBytes?: number;
	/** The path prefix to serve under, e.g. "/agents"; default config.yaml's server.base_path (none). */
	basePath?: string;
	/** Resolves model names the way the runtime does (pass the same resolver given to the runtime). */
	resolveModel?: (name: string) => ResolvedModel;
	/** Directory of the built web page; default dist/web. */
	webRoot?: string;
	/** Start the config's scheduled jobs (default true). */
	scheduleJobs?: boolean;
	env?: NodeJS.ProcessEnv;
	/** Where log lines go (each without its newline); default stderr. */
	log?: (line: string) => void;
	/** Default $AGENT_LOG_FORMAT, else text. */
	logFormat?: LogFormat;
	/** Default $AGENT_LOG_LEVEL, else info. */
	logLevel?: LogLevel;
	/** What slow WebSocket readers may hold queued; default 8 MiB per socket, 64 MiB in all. */
	socketBudget?: SendBudgetOptions;
	/** On close, how long queued and running turns may go on before they are interrupted (default 5 s). */
	shutdownGraceMs?: number;
	/** On close, how long /readyz answers 503 before new requests are refused, so a load balancer notices (default 0). */
	drainDelayMs?: number;
	/** How long to wait for an unreachable store at start (default 5 minutes). */
	waitForStoreMs?: number;
	/** Default config.yaml's server.max_queued_turns. */
	maxQueuedTurns?: number;
	/** Default config.yaml's server.max_concurrent_turns; ignored when `runtime` is given. */
	maxConcurrentTurns?: number;
	/** OpenTelemetry's OTLP/HTTP base URL; default OTEL_EXPORTER_OTLP_ENDPOINT, else config.yaml's server.otlp_endpoint. */
	otlpEndpoint?: string;
	/** Show what other processes write to the store as events (default true; needs a store with `watch`). */
	followStore?: boolean;
	/** A PostgreSQL store's pool sizes, over config.yaml's postgres: (--pg-pool-size, --pg-max-leases). */
	postgres?: PgCapacity;
}

export interface RunningServer {
	/** http://HOST:PORT, with the port actually bound. */
	url: string;
	host: string;
	port: number;
	runtime: AgentSessions;
	scheduler: JobScheduler;
	metrics: ServerMetrics;
	log: Log;
	/** Whether API requests need a bearer token (as the config in force says). */
	readonly requiresToken: boolean;
	/**
	 * Reads config.yaml again and puts its users, tokens, CORS origins, proxy and limit settings in
	 * force (SIGHUP does this). Resolves false, logging why and keeping the settings in force, when
	 * the file does not load or would not work (e.g. no token left on a non-loopback bind).
	 */
	reload(): Promise<boolean>;
	/**
	 * Drains and stops: /readyz goes 503 (then, after the drain delay, new API requests get 503
	 * while the listener keeps answering), queued and running turns go on for the grace period,
	 * those left are interrupted (recorded as such); every response owed is written, then the
	 * connections close. Resolves once done.
	 */
	close(): Promise<void>;
}

/**
 * Listens at once (answering /healthz, /readyz 503 and 503 STARTING), waits for the store,
 * then serves. Resolves once it serves; rejects (and stops listening) when the store stays
 * unreachable past `waitForStoreMs` or the configuration is wrong.
 */
export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
	const host = options.host ?? DEFAULT_HOST;
	const port = options.port ?? DEFAULT_PORT;
	const env = options.env ?? process.env;
	const log = createLogger({
		...logSettingsFromEnv(env),
		...(options.logFormat ? { format: options.logFormat } : {}),
		...(options.logLevel ? { level: options.logLevel } : {}),
		...(options.log ? { write: options.log } : {}),
	});
	if (options.home !== undefined) checkHome(options.home, "the home option");
	const config = options.runtime?.config ?? (await loadConfig(resolveHome(options.home), env));
	const serverConfig = config.server;
	const overrides: AccessOverrides = {
		env,
		...(options.token !== undefined ? { token: options.token } : {}),
		...(options.corsOrigins !== undefined ? { corsOrigins: options.corsOrigins } : {}),
	};
	const guard = new AccessGuard(accessSettings(serverConfig, overrides, host), log);
	const basePath = options.basePath ?? serverConfig.basePath;
	const metricsToken = serverConfig.metricsToken;
	const metrics = new ServerMetrics();
	const readiness = new Readiness((problem) =>
		log(problem ? "error" : "info", problem ? "store.unreachable" : "store.reachable", { error: problem }),
	);
	metrics.observe("agent_ready", "1 while /readyz answers 200 (asked when scraped)", async () =>
		(await readiness.check()).ready ? 1 : 0,
	);
	const health: HealthDeps = {
		readiness,
		metrics,
		// server.metrics_token, or an admin's token; open like the API when no token is configured.
		mayReadMetrics: (presented) => {
			if (metricsToken !== undefined && tokenMatches(presented, metricsToken)) return true;
			const users = guard.settings.users;
			if (!users.requireToken) return metricsToken === undefined;
			return users.authenticate(presented)?.admin === true;
		},
	};
	const inFlight = new InFlight();
	let listener = underBasePath(basePath, getRequestListener(createStartingApp(guard, health, log).fetch));
	const server = http.createServer(inFlight.listener((request, response) => listener(request, response)));
	const refuseWhileStarting = (_request: http.IncomingMessage, socket: import("node:stream").Duplex) =>
		rejectUpgrade(socket, 503, "STARTING", "the server is starting; connect again in a moment");
	server.on("upgrade", refuseWhileStarting);
	await listen(server, port, host);
	const bound = (server.address() as AddressInfo).port;
	const url = `http://${urlHost(host)}:${bound}`;
	log("info", "server.starting", { url });

	const ownsRuntime = !options.runtime;
	// Where config.yaml is read again on reload: the home the runtime was opened at.
	const configHome = options.home !== undefined || ownsRuntime ? resolveHome(options.home) : undefined;
	let parts: Awaited<ReturnType<typeof openParts>>;
	try {
		parts = await openParts(options, config, log);
	} catch (error) {
		server.close();
		server.closeAllConnections();
		throw error;
	}
	const { runtime, instances, follow, tracing } = parts;
	watchStore(runtime.store, metrics);
	const shutdown = new Shutdown();
	const scheduler = new JobScheduler(
		runtime,
		runtime.config.jobs,
		(report) => logJobRun(log, report),
		shutdown.signal,
		instances.claimTick,
	);
	const retention = new RetentionSchedule(runtime, instances, log);
	const storeHome = storeHomeOf(runtime);
	// Subscribed before anything can start a turn, so every turn's text so far is known.
	const turns = new RunningTurns(runtime);
	const owners = new SessionOwners(runtime);
	const spend = new SpendLedger(runtime.store);
	const unwatchTurns = watchTurns(runtime, [
		turnLog(log),
		turnMetrics(metrics),
		...(tracing ? [tracing.observer] : []),
	]);
	const app = createApp({
		runtime,
		guard,
		spend,
		owners,
		basePath,
		bodyLimitBytes: options.bodyLimitBytes ?? serverConfig.bodyLimitBytes,
		scheduler,
		assets: loadWebAssets(options.webRoot),
		models: createModelCatalog(options.resolveModel ?? resolveModel),
		log,
		health,
		limits: { maxQueuedTurns: options.maxQueuedTurns ?? serverConfig.maxQueuedTurns },
		...(storeHome ? { storeHome } : {}),
		shutdown,
	});
	server.off("upgrade", refuseWhileStarting);
	const sockets = attachEventSockets(server, {
		runtime,
		guard,
		owners,
		basePath,
		...(options.socketBudget ? { budget: options.socketBudget } : {}),
		...(storeHome ? { storeHome } : {}),
		turns,
		draining: () => shutdown.started,
	});
	metrics.observe("agent_websockets_open", "WebSocket connections open", () => sockets.size);
	listener = underBasePath(basePath, getRequestListener(app.fetch));
	if (options.scheduleJobs !== false) {
		scheduler.start();
		retention.start();
	}
	readiness.started(runtime.store);
	log("info", "server.ready", { url });

	let closing: Promise<void> | undefined;
	return {
		url,
		host,
		port: bound,
		runtime,
		scheduler,
		metrics,
		log,
		get requiresToken() {
			return guard.settings.users.requireToken;
		},
		reload: () =>
			reloadConfig({ configHome: configHome ?? storeHomeOf(runtime), env, overrides, host, basePath, guard, log }),
		close() {
			retention.stop();
			closing ??= drainAndClose(
				{ server, inFlight, readiness, shutdown, scheduler, sockets, runtime, log },
				{
					drainDelayMs: options.drainDelayMs ?? 0,
					graceMs: options.shutdownGraceMs ?? DEFAULT_SHUTDOWN_GRACE_MS,
					ownsRuntime,
				},
				async () => {
					unwatchTurns();
					await instances.close();
					await follow?.close();
					turns.close();
					owners.close();
					await tracing?.shutdown().catch(() => undefined);
				},
			);
			return closing;
		},
	};
}

/** The runtime (opened when not given, once its store answers), its link to other instances, the store's follower, tracing. */
async function openParts(options: ServerOptions, config: AgentConfig, log: Log) {
	const env = options.env ?? process.env;
	// First: a configured endpoint without the OpenTelemetry packages stops the start before anything is opened.
	const otlpEndpoint = options.otlpEndpoint ?? config.server.otlpEndpoint;
	const tracing = await startTracing({ env, ...(otlpEndpoint ? { configured: otlpEndpoint } : {}) });
	if (tracing) log("info", "tracing.started", {});
	const wait = { waitMs: options.waitForStoreMs ?? DEFAULT_WAIT_FOR_STORE_MS, log };
	const runtime =
		options.runtime ??
		(await waitForStore(() => {
			const deadlines: TurnDeadlines = {
				...(options.turnTimeoutMs !== undefined ? { turnTimeoutMs: options.turnTimeoutMs } : {}),
				...(options.modelCallTimeoutMs !== undefined ? { modelCallTimeoutMs: options.modelCallTimeoutMs } : {}),
			};
			return AgentSessions.open({
				...(options.home !== undefined ? { home: options.home } : {}),
				...(options.store !== undefined ? { storeUrl: options.store } : {}),
				...(options.postgres ? { postgres: options.postgres } : {}),
				config,
				maxLineBytes: SERVER_MAX_LINE_BYTES,
				maxConcurrentTurns: options.maxConcurrentTurns ?? config.server.maxConcurrentTurns,
				...deadlines,
			});
		}, wait));
	const instances = await waitForStore(() => joinInstances(runtime), wait);
	// Writes from other processes (a terminal's `agent-sessions send`, another tool) become events too.
	const follow =
		options.followStore === false ? undefined : await waitForStore(() => followStoreChanges(runtime), wait);
	return { runtime, instances, follow, tracing };
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

function listen(server: http.Server, port: number, host: string): Promise<void> {
	return new Promise<void>((resolve, reject) => {
		server.once("error", reject);
		server.listen(port, host, () => {
			server.off("error", reject);
			resolve();
		});
	});
}

/** The file store's directory, when the runtime runs on one. */
function storeHomeOf(runtime: AgentSessions): string | undefined {
	const home = (runtime.store as { home?: unknown }).home;
	return typeof home === "string" && home.length > 0 ? home : undefined;
}

function urlHost(host: string): string {
	return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
}

function logJobRun(log: Log, report: JobRunReport): void {
	if (report.error) {
		log("warn", "job.failed", {
			jobId: report.jobId,
			error: (report.error as Error)?.message ?? String(report.error),
		});
	} else {
		log("info", "job.ran", { jobId: report.jobId, sessionId: report.sessionId });
	}
}
