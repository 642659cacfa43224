import type http from "node:http";
import type { Duplex } from "node:stream";
import type { AgentSessions, SessionEvent } from "@agent/session";
import { headOf, isAgentSessionError, isSessionId } from "@agent/session-format";
import { type WebSocket, WebSocketServer } from "ws";
import { type AccessGuard, tooMany } from "./access.js";
import { stripBasePath } from "./base-path.js";
import { HttpError, hideStorePath } from "./http-error.js";
import { notFound } from "./ownership.js";
import { canSee } from "./request-user.js";
import type { RunningTurns } from "./running-turns.js";
import { bearerToken, EVENTS_PROTOCOL, tokenFromProtocols } from "./security.js";
import { SendBudget, type SendBudgetOptions } from "./send-budget.js";
import type { SessionOwners } from "./session-owners.js";
import type { RequestUser } from "./users.js";

/** Event types the all-sessions feed carries: what a session list needs, without replies or records. */
const FEED_TYPES = new Set<SessionEvent["type"]>([
	"session.created",
	"session.updated",
	"session.deleted",
	"turn.queued",
	"turn.started",
	"turn.completed",
	"turn.failed",
	"compaction.started",
	"compaction.skipped",
	"compaction.completed",
	"compaction.failed",
]);

const SESSION_EVENTS_PATH = /^\/api\/sessions\/([^/]*)\/events$/;
const FEED_PATH = "/api/events";
const HEARTBEAT_MS = 30_000;
/** The close code of a session socket whose session was deleted. */
export const SESSION_DELETED_CLOSE = 4404;

export interface EventSocketOptions {
	runtime: AgentSessions;
	/** Host/Origin guards, users and tokens, per-client limits (WebSockets per client among them). */
	guard: AccessGuard;
	/** Who created each session: a user's feed carries only their sessions' events. */
	owners: SessionOwners;
	/** The path prefix the server is served under ("" for none). */
	basePath?: string;
	/** What slow readers may hold queued: per socket and in all (see SendBudget). */
	budget?: SendBudgetOptions;
	/** The store's directory, replaced by "the store" in the error messages events carry. */
	storeHome?: string;
	/** Turns in progress: replayed to a socket as it subscribes, so it sees a turn it joined in the middle of. */
	turns?: RunningTurns;
	/** True while the server drains: new sockets are refused (503); open ones stay until the turns they watch end. */
	draining?: () => boolean;
}

export interface EventSockets {
	/** Open WebSocket connections. */
	readonly size: number;
	/** Sockets dropped for falling behind (closed with SLOW_READER_CLOSE). */
	readonly dropped: number;
	close(): void;
}

/**
 * Serves the WebSockets on the HTTP server's upgrade requests:
 * - GET /api/sessions/:id/events: every runtime event of one session, reply deltas included;
 * - GET /api/events: session lifecycle and turn progress of every session (no deltas, no records).
 * Each socket first sends `{ "type": "subscribed", "sessionId"? }`, then one JSON event per message.
 * The same checks as the HTTP API apply: Host/Origin guards, the token (header or `bearer.<base64url>`
 * subprotocol), the client's request rate, a ULID id (400) of a session that exists and the user
 * may see (404); then the client's count of open sockets (429).
 */
export function attachEventSockets(server: http.Server, options: EventSocketOptions): EventSockets {
	const { runtime, guard, owners } = options;
	/** Open sockets per client key. */
	const perClient = new Map<string, number>();
	const budget = new SendBudget(options.budget);
	// Each event is serialized once, and the same buffer is queued on every socket that gets it.
	const serialized = new WeakMap<object, Buffer>();
	const encode = (payload: object): Buffer => {
		let buffer = serialized.get(payload);
		if (!buffer) {
			buffer = Buffer.from(hideStorePath(JSON.stringify(payload), options.storeHome));
			serialized.set(payload, buffer);
		}
		return buffer;
	};
	const wss = new WebSocketServer({
		noServer: true,
		maxPayload: 64 * 1024,
		handleProtocols: (protocols) => (protocols.has(EVENTS_PROTOCOL) ? EVENTS_PROTOCOL : false),
	});
	const alive = new WeakSet<WebSocket>();

	server.on("upgrade", (request: http.IncomingMessage, socket: Duplex, head: Buffer) => {
		socket.on("error", () => socket.destroy());
		upgrade(request, socket, head).catch((error) => {
			if (error instanceof HttpError)
				return rejectUpgrade(socket, error.status, error.code, error.message, error.retryAfter);
			rejectUpgrade(socket, 500, "INTERNAL", "the upgrade failed");
		});
	});

	async function upgrade(request: http.IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
		const url = stripBasePath(request.url ?? "/", options.basePath ?? "");
		const pathname = url === undefined ? (request.url ?? "/") : new URL(url, "http://localhost").pathname;
		const match = url === undefined ? null : SESSION_EVENTS_PATH.exec(pathname);
		if (url === undefined || (!match && pathname !== FEED_PATH)) {
			return rejectUpgrade(socket, 404, "NOT_FOUND", `no WebSocket at ${headOf(pathname, 200)}`);
		}
		if (options.draining?.()) {
			return rejectUpgrade(
				socket,
				503,
				"SHUTTING_DOWN",
				"the server is shutting down; connect again (another instance will answer)",
			);
		}
		const view = guard.view(request.headers, request.socket.remoteAddress);
		const refused = guard.refuse(view, request.headers.origin);
		if (refused) throw refused;
		const protocols = (request.headers["sec-websocket-protocol"] ?? "").split(",").map((item) => item.trim());
		const presented = bearerToken(request.headers.authorization) ?? tokenFromProtocols(protocols);
		const { user, client } = guard.admit(view, presented, `WebSocket ${pathname}`);
		let sessionId: string | undefined;
		if (match) {
			const raw = decodeSegment(match[1] ?? "");
			const shown = JSON.stringify(headOf(raw, 64));
			if (!isSessionId(raw)) return rejectUpgrade(socket, 400, "INVALID_SESSION_ID", `${shown} is not a session id`);
			try {
				if (!canSee(user, await runtime.metadata(raw))) throw notFound(raw);
			} catch (error) {
				if (isAgentSessionError(error, "SESSION_NOT_FOUND")) throw notFound(raw);
				throw error;
			}
			sessionId = raw;
		}
		const limit = guard.settings.limits.websocketsPerClient;
		if ((perClient.get(client) ?? 0) >= limit) {
			throw tooMany(
				5,
				"TOO_MANY_WEBSOCKETS",
				`more than ${limit} open WebSockets (server.limits.websockets_per_client)`,
			);
		}
		// With no verifyClient, ws completes the upgrade synchronously: nothing runs between the check and the count.
		wss.handleUpgrade(request, socket, head, (ws) => {
			perClient.set(client, (perClient.get(client) ?? 0) + 1);
			ws.on("close", () => release(client));
			connect(ws, sessionId, user);
		});
	}

	function release(client: string): void {
		const left = (perClient.get(client) ?? 1) - 1;
		if (left > 0) perClient.set(client, left);
		else perClient.delete(client);
	}

	function connect(ws: WebSocket, sessionId: string | undefined, user: RequestUser): void {
		alive.add(ws);
		ws.on("pong", () => alive.add(ws));
		ws.on("error", () => ws.terminate());
		budget.track(ws);
		const send = (payload: object) => budget.send(ws, encode(payload));
		const unsubscribe = sessionId
			? runtime.subscribe(
					(event) => {
						send(event);
						// Nothing more will come: say so with a close code clients do not retry on.
						if (event.type === "session.deleted") ws.close(SESSION_DELETED_CLOSE, "session deleted");
					},
					{ sessionId },
				)
			: subscribeFeed(user);
		ws.on("close", unsubscribe);
		send(sessionId ? { type: "subscribed", sessionId } : { type: "subscribed" });
		// Taken in the same tick as the subscription: every later change of these turns is an event it gets.
		const replay = sessionId ? send : owners.filter(user, send);
		for (const event of options.turns?.replay(sessionId) ?? []) replay(event);

		function subscribeFeed(user: RequestUser): () => void {
			// A user's feed carries their own sessions' events only (an admin's, every session's).
			const own = owners.filter(user, (event) => send(feedEvent(event)));
			return runtime.subscribe((event) => {
				if (FEED_TYPES.has(event.type)) own(event);
			});
		}
	}

	const heartbeat = setInterval(() => {
		for (const ws of wss.clients) {
			if (!alive.has(ws)) {
				ws.terminate();
				continue;
			}
			alive.delete(ws);
			ws.ping();
		}
	}, HEARTBEAT_MS);
	heartbeat.unref();

	return {
		get size() {
			return wss.clients.size;
		},
		get dropped() {
			return budget.dropped;
		},
		close() {
			clearInterval(heartbeat);
			for (const ws of wss.clients) ws.close(1001, "server shutting down");
			wss.close();
		},
	};
}

const feedVariants = new WeakMap<SessionEvent, object>();

/** The feed carries turn outcomes without their records, which can be large (one object per event, so it is serialized once). */
function feedEvent(event: SessionEvent): object {
	if (event.type !== "turn.completed") return event;
	let variant = feedVariants.get(event);
	if (!variant) {
		variant = { type: event.type, sessionId: event.sessionId, turnId: event.turnId };
		feedVariants.set(event, variant);
	}
	return variant;
}

function decodeSegment(segment: string): string {
	try {
		return decodeURIComponent(segment);
	} catch {
		return segment;
	}
}

const REASONS: Record<number, string> = {
	400: "Bad Request",
	401: "Unauthorized",
	403: "Forbidden",
	404: "Not Found",
	429: "Too Many Requests",
	500: "Internal Server Error",
	503: "Service Unavailable",
};

/** Answers an upgrade request with a plain HTTP error and closes the socket. */
export function rejectUpgrade(
	socket: Duplex,
	status: number,
	code: string,
	message: string,
	retryAfter?: number,
): void {
	if (!socket.writable) return;
	const prefixed = message.startsWith("agent-sessions-server:") ? message : `agent-sessions-server: ${message}`;
	const body = JSON.stringify({ error: { code, message: prefixed } });
	socket.end(
		`HTTP/1.1 ${status} ${REASONS[status] ?? "Error"}\r\n` +
			"Content-Type: application/json; charset=utf-8\r\n" +
			`Content-Length: ${Buffer.byteLength(body)}\r\n` +
			(status === 401 ? 'WWW-Authenticate: Bearer realm="agent-sessions"\r\n' : "") +
			(retryAfter !== undefined ? `Retry-After: ${retryAfter}\r\n` : "") +
			"Connection: close\r\n\r\n" +
			body,
	);
}
