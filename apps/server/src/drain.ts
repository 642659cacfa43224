import type http from "node:http";
import type { AgentSessions } from "@agent/session";
import type { EventSockets } from "./event-sockets.js";
import type { InFlight } from "./in-flight.js";
import type { Log } from "./log.js";
import type { Readiness } from "./readiness.js";
import type { JobScheduler } from "./scheduler.js";
import type { Shutdown } from "./shutdown.js";

/** After the interruption, how long the interrupted turns get to store what they wrote and release their lease. */
const ABORT_SETTLE_MS = 5000;
/** How long responses still being written (a large export, a slow reader) get once the turns are done. */
const RESPONSES_SETTLE_MS = 5000;

export interface DrainParts {
	server: http.Server;
	inFlight: InFlight;
	readiness: Readiness;
	shutdown: Shutdown;
	scheduler: JobScheduler;
	sockets: EventSockets;
	runtime: AgentSessions;
	log: Log;
}

/**
 * A deploy that loses nothing, in order:
 * 1. /readyz answers 503 and scheduled jobs stop; for `drainDelayMs` all else is served as before,
 *    so a load balancer notices and stops sending.
 * 2. New API requests (and WebSockets) get a 503 SHUTTING_DOWN they can retry elsewhere; the
 *    listener stays open (no refused connections) and responses say `Connection: close`.
 * 3. Queued and running turns go on for `graceMs`; those left are then interrupted (a
 *    TurnInterruption): each is recorded with outcome interrupted, the queued ones with their user
 *    message, and a `?wait=1` caller gets 503 TURN_INTERRUPTED.
 * 4. Every response owed is written in full (a `?wait=1` whose turn ended), then WebSockets are
 *    told (1001) and the connections close; `closeRest` closes the rest.
 */
export async function drainAndClose(
	parts: DrainParts,
	timing: { drainDelayMs: number; graceMs: number; ownsRuntime: boolean },
	closeRest: () => Promise<void>,
): Promise<void> {
	const { server, inFlight, readiness, shutdown, scheduler, sockets, runtime, log } = parts;
	readiness.draining();
	scheduler.stop();
	log("info", "shutdown.draining", { drainDelayMs: timing.drainDelayMs, graceMs: timing.graceMs });
	if (timing.drainDelayMs > 0) await sleep(timing.drainDelayMs);
	shutdown.begin();
	// Idle keep-alive connections are not cut now (a client reusing one that very moment would get a
	// reset): each closes after its next answer (Connection: close), or when idle past keepAliveTimeout.
	inFlight.drain();
	if (!(await settlesWithin(runtime.idle(), timing.graceMs))) {
		log("warn", "shutdown.interrupting", { graceMs: timing.graceMs });
		shutdown.abort();
		if (!(await settlesWithin(runtime.idle(), ABORT_SETTLE_MS))) {
			log("error", "shutdown.turn_stuck", { waitedMs: ABORT_SETTLE_MS });
		}
	}
	if (!(await inFlight.idle(RESPONSES_SETTLE_MS))) {
		log("warn", "shutdown.responses_cut", { responses: inFlight.size });
	}
	sockets.close();
	const closed = new Promise<void>((resolve) => server.close(() => resolve()));
	server.closeAllConnections();
	await closed;
	await closeRest();
	if (timing.ownsRuntime) await settlesWithin(runtime.idle(), ABORT_SETTLE_MS);
	log("info", "shutdown.done", {});
}

function sleep(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
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
