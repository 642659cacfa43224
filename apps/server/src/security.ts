import net from "node:net";

/** The environment variable that carries the bearer token (it wins over config.yaml's server.token). */
export const TOKEN_ENV = "AGENT_SERVER_TOKEN";
export const MIN_TOKEN_LENGTH = 16;

/** True for names and addresses that only this machine can reach: localhost, 127.0.0.0/8, ::1. */
export function isLoopbackHost(host: string): boolean {
	const bare = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
	const lower = bare.toLowerCase();
	if (lower === "localhost" || lower.endsWith(".localhost")) return true;
	if (net.isIPv4(lower)) return lower.startsWith("127.");
	if (net.isIPv6(lower)) return lower === "::1" || lower === "0:0:0:0:0:0:0:1" || lower.startsWith("::ffff:127.");
	return false;
}

/**
 * The token to require: $AGENT_SERVER_TOKEN, else config.yaml's server.token, else none. Either
 * must pass `checkToken`.
 */
export function resolveToken(
	configToken: string | undefined,
	env: NodeJS.ProcessEnv = process.env,
): string | undefined {
	const fromEnv = env[TOKEN_ENV];
	if (fromEnv !== undefined && fromEnv.length > 0) return checkToken(fromEnv, TOKEN_ENV);
	if (configToken !== undefined) return checkToken(configToken, "server.token in config.yaml");
	return undefined;
}

/**
 * Refuses a weak or unusable token: shorter than 16 characters, or holding whitespace (a
 * whitespace-only token is guessable, and a token with a space can never be sent in an
 * `Authorization: Bearer` header). `where` names where it came from.
 */
export function checkToken(token: string, where: string): string {
	if (token.length < MIN_TOKEN_LENGTH) {
		throw new Error(
			`agent-sessions-server: ${where} must be at least ${MIN_TOKEN_LENGTH} characters long; use a long random string`,
		);
	}
	if (/\s/.test(token)) {
		throw new Error(
			`agent-sessions-server: ${where} must not contain spaces or other whitespace (it could not be sent in an Authorization header); use a long random string`,
		);
	}
	return token;
}

/**
 * Refuses an unsafe bind: any host other than loopback needs a token, because anyone who can
 * reach the port could otherwise read and write every session.
 */
export function assertSafeBind(host: string, token: string | undefined): void {
	if (isLoopbackHost(host) || token) return;
	throw new Error(
		`agent-sessions-server: refusing to listen on ${host} without a token; anyone who can reach it could read and write every session. ` +
			`Set ${TOKEN_ENV} (at least ${MIN_TOKEN_LENGTH} characters) or server.token in config.yaml, or bind to 127.0.0.1`,
	);
}

/** The token of an `Authorization: Bearer <token>` header. */
export function bearerToken(header: string | undefined | null): string | undefined {
	if (!header) return undefined;
	const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
	return match?.[1];
}

/** The WebSocket subprotocol prefix that carries the token from browsers, which cannot set headers on a WebSocket. */
export const TOKEN_PROTOCOL_PREFIX = "bearer.";
/** The subprotocol the server speaks on its WebSockets. */
export const EVENTS_PROTOCOL = "agent-sessions.v1";

/** The token carried in a `bearer.<base64url token>` subprotocol, if any. */
export function tokenFromProtocols(protocols: Iterable<string>): string | undefined {
	for (const protocol of protocols) {
		if (!protocol.startsWith(TOKEN_PROTOCOL_PREFIX)) continue;
		const encoded = protocol.slice(TOKEN_PROTOCOL_PREFIX.length);
		if (!/^[A-Za-z0-9_-]+$/.test(encoded)) return undefined;
		return Buffer.from(encoded, "base64url").toString("utf8");
	}
	return undefined;
}

/** The host part of a Host header value ("127.0.0.1:4317" → "127.0.0.1", "[::1]:80" → "[::1]"). */
export function hostOfHeader(hostHeader: string): string {
	if (hostHeader.startsWith("[")) {
		const end = hostHeader.indexOf("]");
		return end > 0 ? hostHeader.slice(0, end + 1) : hostHeader;
	}
	const colon = hostHeader.lastIndexOf(":");
	return colon >= 0 ? hostHeader.slice(0, colon) : hostHeader;
}

export interface AccessPolicy {
	/** True when every API request must present a token; false on an open loopback server. */
	requireToken: boolean;
	/** Origins allowed to call the API cross-origin (CORS); empty means none. */
	corsOrigins: readonly string[];
}

/**
 * Why a request is refused before any route runs, or undefined when it may proceed:
 * - without a token (loopback only), a Host header that is not loopback is refused (DNS rebinding);
 * - an Origin that is neither this server's nor configured for CORS is refused (cross-site requests).
 * `host` is the host the client addressed and `proto` its scheme when known: behind a trusted
 * proxy, the forwarded ones (client-view.ts), so a proxy that rewrites Host does not make the
 * page's own requests cross-origin.
 */
export function refuseRequest(
	policy: AccessPolicy,
	headers: { host: string | undefined; origin: string | undefined; proto?: string | undefined },
): { status: 403; code: string; message: string } | undefined {
	const host = headers.host ?? "";
	if (!policy.requireToken && !isLoopbackHost(hostOfHeader(host))) {
		return {
			status: 403,
			code: "HOST_NOT_ALLOWED",
			message: `agent-sessions-server: the Host header ${JSON.stringify(host.slice(0, 100))} is not a loopback name; this server only answers requests addressed to it on loopback`,
		};
	}
	const origin = headers.origin;
	if (origin && origin !== "null" && !policy.corsOrigins.includes(origin) && !sameOrigin(origin, host, headers.proto)) {
		return {
			status: 403,
			code: "ORIGIN_NOT_ALLOWED",
			message: `agent-sessions-server: requests from ${JSON.stringify(origin.slice(0, 100))} are not allowed; add the origin to server.cors_origins in config.yaml`,
		};
	}
	if (origin === "null" && !policy.corsOrigins.includes("null")) {
		return {
			status: 403,
			code: "ORIGIN_NOT_ALLOWED",
			message: "agent-sessions-server: opaque origins are not allowed",
		};
	}
	return undefined;
}

function sameOrigin(origin: string, host: string, proto: string | undefined): boolean {
	try {
		const url = new URL(origin);
		if (proto !== undefined && url.protocol !== `${proto}:`) return false;
		return (
			(url.protocol === "http:" || url.protocol === "https:") && url.host === new URL(`${url.protocol}//${host}`).host
		);
	} catch {
		return false;
	}
}
