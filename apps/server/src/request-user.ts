import type { SessionMetadata } from "@agent/session-format";
import type { Context } from "hono";
import { LOCAL_USER, type RequestUser } from "./users.js";

declare module "hono" {
	interface ContextVariableMap {
		/** Who the request is, set once its token was checked (app.ts). */
		user: RequestUser;
	}
}

/** The user of a request (the open loopback server's local user when no token is configured). */
export function userOf(c: Context): RequestUser {
	return c.get("user") ?? LOCAL_USER;
}

/** An admin sees every session; a user only those they created. */
export function canSee(user: RequestUser, metadata: Pick<SessionMetadata, "createdBy">): boolean {
	return user.admin || (user.name !== undefined && metadata.createdBy === user.name);
}

/** The store filter that keeps a listing or search to what the user may see: their own, unless admin. */
export function ownFilter(user: RequestUser): { createdBy?: string } {
	return user.admin || user.name === undefined ? {} : { createdBy: user.name };
}

/** The creation fact of a session the user creates: them, when they have a name. */
export function creatorOf(user: RequestUser): { createdBy?: string } {
	return user.name === undefined ? {} : { createdBy: user.name };
}
