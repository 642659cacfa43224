import type { IncomingMessage } from "node:http";
import type { AgentSessions } from "@agent/session";
import { type Context, Hono, type MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { cors } from "hono/cors";
import type { AccessGuard } from "./access.js";
import type { ClientView } from "./client-view.js";
import { HttpError, hideStorePath, toHttpError } from "./http-error.js";
import type { Log } from "./log.js";
import type { ModelCatalog } from "./model-catalog.js";
import { sessionOwnership } from "./ownership.js";
import { requestLog } from "./request-log.js";
import type { RouteDeps, TurnLimits } from "./route-deps.js";
import { type HealthDeps, registerHealthRoutes } from "./routes/health.js";
import { registerJobRoutes } from "./routes/jobs.js";
import { registerMessageRoutes } from "./routes/messages.js";
import { registerModelRoutes } from "./routes/models.js";
import { registerSearchRoutes } from "./routes/search.js";
import { registerSessionActionRoutes } from "./routes/session-actions.js";
import { registerSessionReadRoutes } from "./routes/session-reads.js";
import { registerSessionRoutes } from "./routes/sessions.js";
import { registerStatsRoutes } from "./routes/stats.js";
import { registerTurnRoutes } from "./routes/turns.js";
import { registerWebPageRoutes } from "./routes/web-page.js";
import type { JobScheduler } from "./scheduler.js";
import { bearerToken } from "./security.js";
import type { SessionOwners } from "./session-owners.js";
import { Shutdown } from "./shutdown.js";
import type { SpendLedger } from "./spend-ledger.js";
import { drainUnreadBody } from "./unread-body.js";
import type { WebAssets } from "./web-assets.js";

export interface AppOptions {
	runtime: AgentSessions;
	/** Host/Origin guards, users and tokens, per-client limits: the settings SIGHUP reloads. */
	guard: AccessGuard;
	/** What each user spent today, for their daily spend cap. */
	spend: SpendLedger;
	/** Who created each session (shared with the WebSockets' feed). */
	owners: SessionOwners;
	/** The path prefix the server is served under ("" for none): Location headers carry it. */
	basePath?: string;
	/** The largest request body accepted, in bytes; larger ones get a 413. */
	bodyLimitBytes: number;
	scheduler: JobScheduler;
	assets: WebAssets;
	models: ModelCatalog;
	/** The server's log: a line per request, and unexpected (500) errors with their stack. */
	log: Log;
	/** /healthz, /readyz and /metrics. */
	health: HealthDeps;
	limits: TurnLimits;
	/** The store's directory, never shown to clients: error messages say "the store" instead. */
	storeHome?: string;
	/** The server's shutdown: no new turns once it started, and running ones get its signal. */
	shutdown?: Shutdown;
}

const PROBE_PATHS = new Set(["/healthz", "/readyz", "/metrics"]);

/**
 * Every answer of the API (errors and 404s included) and of the probes: never cached (it holds
 * transcripts), never content-sniffed. The page's own files set their headers where they are served.
 */
export const apiResponseHeaders: MiddlewareHandler = async (c, next) => {
	await next();
	if (c.req.path.startsWith("/api/") || PROBE_PATHS.has(c.req.path)) {
		c.res.headers.set("Cache-Control", "no-store");
		c.res.headers.set("X-Content-Type-Options", "nosniff");
	}
};

/** The client and host of a request as the client sent them (behind trusted proxies, as forwarded). */
function viewOf(c: Context, guard: AccessGuard): ClientView {
	const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
	return guard.view(incoming?.headers ?? { host: c.req.header("host") }, incoming?.socket.remoteAddress);
}

/** The Host and Origin guards (as the client sent them, behind trusted proxies as forwarded), before any route runs. */
export function hostAndOriginGuard(guard: AccessGuard): MiddlewareHandler {
	return async (c, next) => {
		const refused = guard.refuse(viewOf(c, guard), c.req.header("origin"));
		if (refused) throw refused;
		await next();
	};
}

/**
 * The Hono app: Host/Origin guards, CORS (only when configured), the user's token and the
 * client's request rate, the body limit, who may see which session, and the routes.
 */
export function createApp(options: AppOptions): Hono {
	const app = new Hono();
	const { guard } = options;
	const shutdown = options.shutdown ?? new Shutdown();

	app.use("*", requestLog(options.log, options.health.metrics));
	app.use("*", drainUnreadBody);
	app.use("*", apiResponseHeaders);
	app.use("*", hostAndOriginGuard(guard));
	// Draining: the listener still answers, so a new API request gets a 503 it can retry elsewhere, not a refused connection.
	app.use("/api/*", async (c, next) => {
		if (shutdown.started) c.header("Retry-After", "1");
		shutdown.refuseRequest();
		await next();
	});

	const corsHandler = cors({
		origin: (origin) => (guard.settings.policy.corsOrigins.includes(origin) ? origin : null),
		allowMethods: ["GET", "POST", "PATCH", "DELETE"],
		allowHeaders: ["Authorization", "Content-Type"],
		maxAge: 600,
	});
	// Read per request: a SIGHUP reload may change the origins.
	app.use("/api/*", (c, next) => (guard.settings.policy.corsOrigins.length > 0 ? corsHandler(c, next) : next()));

	app.use("/api/*", async (c, next) => {
		const admitted = guard.admit(
			viewOf(c, guard),
			bearerToken(c.req.header("authorization")),
			`${c.req.method} ${c.req.path}`,
		);
		c.set("user", admitted.user);
		await next();
	});

	app.use(
		"/api/*",
		bodyLimit({
			maxSize: options.bodyLimitBytes,
			onError: () => {
				throw new HttpError(
					413,
					"BODY_TOO_LARGE",
					`agent-sessions-server: the request body is larger than ${options.bodyLimitBytes} bytes (server.body_limit_bytes in config.yaml)`,
				);
			},
		}),
	);

	const deps: RouteDeps = {
		runtime: options.runtime,
		models: options.models,
		scheduler: options.scheduler,
		assets: options.assets,
		shutdown,
		guard,
		spend: options.spend,
		owners: options.owners,
		basePath: options.basePath ?? "",
		limits: options.limits,
	};
	// Before the routes: a user reaches only their own sessions (an admin every one).
	const ownership = sessionOwnership(options.runtime, options.owners);
	// Hono's "/:id/*" matches "/api/sessions/:id" itself too.
	app.use("/api/sessions/:id/*", ownership);
	registerHealthRoutes(app, options.health);
	registerSessionRoutes(app, deps);
	registerSearchRoutes(app, deps);
	registerSessionReadRoutes(app, deps);
	registerMessageRoutes(app, deps);
	registerTurnRoutes(app, deps);
	registerSessionActionRoutes(app, deps);
	registerJobRoutes(app, deps);
	registerModelRoutes(app, deps);
	registerStatsRoutes(app, deps);
	registerWebPageRoutes(app, deps);

	app.notFound((c) =>
		c.json(
			new HttpError(404, "NOT_FOUND", `agent-sessions-server: no route for ${c.req.method} ${c.req.path}`).toBody(),
			404,
		),
	);

	app.onError((error, c) => {
		const httpError = toHttpError(error);
		// Model failures (502) and aborts (503) reach the client and the event stream; only our own failures are logged.
		if (httpError.status === 500) {
			options.log("error", "request.failed", {
				method: c.req.method,
				path: c.req.path,
				error: (error as Error)?.stack ?? String(error),
			});
		}
		if (httpError.status === 401) c.header("WWW-Authenticate", 'Bearer realm="agent-sessions"');
		if (httpError.retryAfter !== undefined) c.header("Retry-After", String(httpError.retryAfter));
		const body = httpError.toBody();
		body.error.message = hideStorePath(body.error.message, options.storeHome);
		return c.json(body, httpError.status as 400);
	});

	return app;
}
