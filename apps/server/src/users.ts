import { createHash, timingSafeEqual } from "node:crypto";
import type { ServerUser } from "@agent/session";
import { checkToken } from "./security.js";

/** Who a request is: a user's name (recorded as the creator of their sessions) and whether they are an admin. */
export interface RequestUser {
	/** Absent on an open loopback server (no token): nobody in particular, who sees everything. */
	name?: string;
	admin: boolean;
}

/** The user of an open loopback server: no name, every session. */
export const LOCAL_USER: RequestUser = Object.freeze({ admin: true });

/** The name of the user that server.token (or AGENT_SERVER_TOKEN) authenticates. */
export const ADMIN_NAME = "admin";

interface Entry {
	user: RequestUser;
	digest: Buffer;
	dailySpendLimit?: number;
}

function digest(value: string): Buffer {
	return createHash("sha256").update(value).digest();
}

/** Whether `presented` is `token`, compared in constant time (a single secret such as server.metrics_token). */
export function tokenMatches(presented: string | undefined, token: string): boolean {
	return presented !== undefined && timingSafeEqual(digest(presented), digest(token));
}

/**
 * The server's users and their tokens: the one admin of server.token (named "admin") and
 * server.users. `authenticate` compares the presented token with every user's, in constant time
 * each and without stopping at a match, so the time taken says nothing about which token matched.
 */
export class Users {
	private readonly entries: Entry[];

	constructor(adminToken: string | undefined, users: readonly ServerUser[]) {
		this.entries = [];
		if (adminToken !== undefined) {
			this.entries.push({ user: { name: ADMIN_NAME, admin: true }, digest: digest(adminToken) });
		}
		users.forEach((user, index) => {
			if (adminToken !== undefined && user.name === ADMIN_NAME) {
				throw new Error(
					`agent-sessions-server: server.users.${index}.name: "${ADMIN_NAME}" is the user of server.token (or AGENT_SERVER_TOKEN); pick another name`,
				);
			}
			checkToken(user.token, `server.users.${index}.token in config.yaml`);
			if (adminToken !== undefined && user.token === adminToken) {
				throw new Error(
					`agent-sessions-server: server.users.${index}.token is the admin's token (server.token or AGENT_SERVER_TOKEN); give each user their own`,
				);
			}
			this.entries.push({
				user: Object.freeze({ name: user.name, admin: user.admin }),
				digest: digest(user.token),
				...(user.dailySpendLimit !== undefined ? { dailySpendLimit: user.dailySpendLimit } : {}),
			});
		});
	}

	/** True when API requests must present a token (some user is configured). */
	get requireToken(): boolean {
		return this.entries.length > 0;
	}

	get size(): number {
		return this.entries.length;
	}

	/** The user whose token was presented, or undefined. */
	authenticate(presented: string | undefined): RequestUser | undefined {
		if (presented === undefined) return undefined;
		const seen = digest(presented);
		let found: RequestUser | undefined;
		for (const entry of this.entries) {
			if (timingSafeEqual(seen, entry.digest) && found === undefined) found = entry.user;
		}
		return found;
	}

	/** The user's own daily spend cap (server.users[].daily_spend_limit), if set. */
	dailySpendLimitOf(name: string): number | undefined {
		return this.entries.find((entry) => entry.user.name === name)?.dailySpendLimit;
	}
}
