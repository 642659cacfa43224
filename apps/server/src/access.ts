import type { IncomingHttpHeaders } from "node:http";
import type { ServerConfig } from "@agent/session";
import { type ClientView, clientView } from "./client-view.js";
import { HttpError } from "./http-error.js";
import type { Log } from "./log.js";
import { TokenBuckets } from "./rate-limit.js";
import { type AccessPolicy, assertSafeBind, checkToken, refuseRequest, resolveToken } from "./security.js";
import { LOCAL_USER, type RequestUser, Users } from "./users.js";

/** Per-client limits in force. */
export interface Limits {
	requestsPerSecond: number;
	requestBurst: number;
	websocketsPerClient: number;
	authFailuresPerMinute: number;
	/** USD each user may spend per UTC day (server.users[].daily_spend_limit overrides it). */
	dailySpendLimit?: number;
}

/**
 * The limits of a server that needs a token (it is reachable by others): generous for a person
 * and a page (which opens two sockets per tab), tight enough that one client cannot take the rest.
 * An open loopback server has one user, this machine's: it gets no limits unless configured.
 */
export const DEFAULT_LIMITS: Readonly<Limits> = {
	requestsPerSecond: 20,
	requestBurst: 60,
	websocketsPerClient: 32,
	authFailuresPerMinute: 20,
};

const UNLIMITED: Readonly<Limits> = {
	requestsPerSecond: Number.POSITIVE_INFINITY,
	requestBurst: Number.POSITIVE_INFINITY,
	websocketsPerClient: Number.POSITIVE_INFINITY,
	authFailuresPerMinute: Number.POSITIVE_INFINITY,
};

/** What config.yaml's server section says about who may do what (everything SIGHUP reloads). */
export interface AccessSettings {
	users: Users;
	policy: AccessPolicy;
	trustProxy: number;
	limits: Limits;
}

/** Overrides of config.yaml given to startServer (they win over the file at every reload). */
export interface AccessOverrides {
	token?: string;
	corsOrigins?: string[];
	env: NodeJS.ProcessEnv;
}

/**
 * The access settings of a server section: the admin token ($AGENT_SERVER_TOKEN, else
 * server.token), the users, CORS, proxies and limits. Throws (naming the key) on anything that
 * would not work, and when `host` is not loopback and no token is configured.
 */
export function accessSettings(config: ServerConfig, overrides: AccessOverrides, host: string): AccessSettings {
	const token =
		overrides.token !== undefined
			? checkToken(overrides.token, "the token")
			: resolveToken(config.token, overrides.env);
	const users = new Users(token, config.users);
	assertSafeBind(host, users.requireToken ? "configured" : undefined);
	const base = users.requireToken ? DEFAULT_LIMITS : UNLIMITED;
	const configured = Object.fromEntries(Object.entries(config.limits).filter(([, value]) => value !== undefined));
	const limits: Limits = { ...base, ...configured };
	// A burst below one second's rate would refuse requests the rate allows.
	if (config.limits.requestBurst === undefined) {
		limits.requestBurst = Math.max(limits.requestBurst, Math.ceil(limits.requestsPerSecond));
	}
	return {
		users,
		policy: { requireToken: users.requireToken, corsOrigins: overrides.corsOrigins ?? config.corsOrigins },
		trustProxy: config.trustProxy,
		limits,
	};
}

/** A request admitted to the API: who it is, and the client key its limits count against. */
export interface Admitted {
	user: RequestUser;
	/** "user:NAME" when authenticated, else "address:ADDR". */
	client: string;
}

/**
 * The checks every API request and WebSocket goes through, in order: the Host and Origin guards
 * (403), the token (401; a client address with too many failures gets 429 without its token being
 * looked at), then the client's request rate (429). Failures are logged, one line each. Holds the
 * settings in force; `update` swaps them (a SIGHUP reload) and keeps the counts of limits that did
 * not change.
 */
export class AccessGuard {
	private current: AccessSettings;
	private requests: TokenBuckets;
	private failures: TokenBuckets;

	constructor(
		settings: AccessSettings,
		private readonly log: Log,
	) {
		this.current = settings;
		this.requests = requestBuckets(settings.limits);
		this.failures = failureBuckets(settings.limits);
	}

	get settings(): AccessSettings {
		return this.current;
	}

	update(settings: AccessSettings): void {
		const before = this.current.limits;
		this.current = settings;
		if (
			before.requestsPerSecond !== settings.limits.requestsPerSecond ||
			before.requestBurst !== settings.limits.requestBurst
		) {
			this.requests = requestBuckets(settings.limits);
		}
		if (before.authFailuresPerMinute !== settings.limits.authFailuresPerMinute) {
			this.failures = failureBuckets(settings.limits);
		}
	}

	view(headers: IncomingHttpHeaders, peerAddress: string | undefined): ClientView {
		return clientView(headers, peerAddress, this.current.trustProxy);
	}

	/** The Host / Origin guards (403), for every request: the page, the API and WebSockets. */
	refuse(view: ClientView, origin: string | undefined): HttpError | undefined {
		const refused = refuseRequest(this.current.policy, { host: view.host, origin, proto: view.proto });
		return refused && new HttpError(refused.status, refused.code, refused.message);
	}

	/** Authenticates an API request or WebSocket and counts it against its client's rate; throws 401 or 429. */
	admit(view: ClientView, presented: string | undefined, what: string): Admitted {
		const { users, limits } = this.current;
		let user = LOCAL_USER;
		if (users.requireToken) {
			const blocked = this.failures.peek(view.address);
			if (blocked !== undefined)
				throw tooMany(blocked, "AUTH_RATE_LIMITED", "too many requests failed authentication from this address");
			const found = users.authenticate(presented);
			if (!found) {
				const wait = this.failures.take(view.address);
				this.log("warn", "auth.failed", {
					client: view.address,
					request: what,
					reason: presented === undefined ? "no token" : "wrong token",
					...(wait !== undefined || this.failures.peek(view.address) !== undefined ? { blocked: true } : {}),
				});
				throw new HttpError(
					401,
					"UNAUTHORIZED",
					"agent-sessions-server: this server needs `Authorization: Bearer <token>` (AGENT_SERVER_TOKEN, config.yaml's server.token, or a user's token from server.users)",
				);
			}
			user = found;
		}
		const client = user.name !== undefined ? `user:${user.name}` : `address:${view.address}`;
		const wait = this.requests.take(client);
		if (wait !== undefined) {
			this.log("warn", "request.rate_limited", { client, request: what });
			throw tooMany(
				wait,
				"RATE_LIMITED",
				`more than ${limits.requestsPerSecond} requests per second (server.limits.requests_per_second)`,
			);
		}
		return { user, client };
	}

	/** The USD the user may spend per UTC day, if capped. */
	dailySpendLimitOf(user: RequestUser): number | undefined {
		if (user.name === undefined) return undefined;
		return this.current.users.dailySpendLimitOf(user.name) ?? this.current.limits.dailySpendLimit;
	}
}

function requestBuckets(limits: Limits): TokenBuckets {
	return new TokenBuckets(limits.requestsPerSecond, limits.requestBurst);
}

function failureBuckets(limits: Limits): TokenBuckets {
	return new TokenBuckets(limits.authFailuresPerMinute / 60, limits.authFailuresPerMinute);
}

/** A 429 with the seconds to wait, which the app sends as Retry-After. */
export function tooMany(retryAfterSeconds: number, code: string, why: string): HttpError {
	return new HttpError(429, code, `agent-sessions-server: ${why}; retry in ${retryAfterSeconds} s`, {
		retryAfter: retryAfterSeconds,
	});
}
