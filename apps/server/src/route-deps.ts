import type { AgentSessions } from "@agent/session";
import type { AccessGuard } from "./access.js";
import type { ModelCatalog } from "./model-catalog.js";
import type { JobScheduler } from "./scheduler.js";
import type { SessionOwners } from "./session-owners.js";
import type { Shutdown } from "./shutdown.js";
import type { SpendLedger } from "./spend-ledger.js";
import type { WebAssets } from "./web-assets.js";

/**
 * What the route modules share. A module of its own, so that the app (which registers the routes)
 * and the routes (which take these) import it, and never each other.
 */
export interface RouteDeps {
	runtime: AgentSessions;
	models: ModelCatalog;
	scheduler: JobScheduler;
	assets: WebAssets;
	/** The server's shutdown: no new turns once it started, and running ones get its signal. */
	shutdown: Shutdown;
	/** Users, limits and spend caps in force. */
	guard: AccessGuard;
	spend: SpendLedger;
	/** Who created each session: what a listing shows is remembered for the WebSockets' feed. */
	owners: SessionOwners;
	/** The path prefix the server is served under ("" for none). */
	basePath: string;
	limits: TurnLimits;
}

/** Limits on what sends may queue. */
export interface TurnLimits {
	/** Turns that may wait behind a session's running one; a send past it gets 429 (server.max_queued_turns). */
	maxQueuedTurns: number;
}
