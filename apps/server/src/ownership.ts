import type { AgentSessions } from "@agent/session";
import { isSessionId } from "@agent/session-format";
import type { MiddlewareHandler } from "hono";
import { HttpError } from "./http-error.js";
import { canSee, userOf } from "./request-user.js";
import type { SessionOwners } from "./session-owners.js";

/** The 404 of a session a user may not see: the same as for one that does not exist, so ids reveal nothing. */
export function notFound(id: string): HttpError {
	return new HttpError(404, "SESSION_NOT_FOUND", `agent-sessions-server: session ${id} was not found`);
}

/**
 * Guards every route under /api/sessions/:id: a user who is not an admin reaches only the
 * sessions they created (anything else is a 404, as for no session at all). Ids that are not
 * ULIDs are left to the route's own 400. The creator is a creation fact, so the answer cannot
 * change between this check and the route. The creator read is kept in `owners`, and before a
 * delete it is read for an admin too: the feed then knows whose session.deleted it is.
 */
export function sessionOwnership(runtime: AgentSessions, owners: SessionOwners): MiddlewareHandler {
	return async (c, next) => {
		const user = userOf(c);
		const id = c.req.param("id");
		if ((!user.admin || c.req.method === "DELETE") && id !== undefined && isSessionId(id)) {
			const metadata = await runtime.metadata(id);
			owners.remember(metadata);
			if (!canSee(user, metadata)) throw notFound(id);
		}
		await next();
	};
}
