import { AgentSessionError, assertSessionId, type SessionStore } from "@agent/session-format/reading";
import { UsageError } from "./errors.js";
import { listSessions } from "./sessions-query.js";

const ID_LENGTH = 26;
const ID_PREFIX = /^[0-9A-HJKMNP-TV-Z]{1,25}$/;
/** Candidates an ambiguous prefix error lists. */
const SHOWN_CANDIDATES = 10;

/**
 * The session an id argument names: a whole id as given, or the one session (archived ones
 * included) whose id starts with a shorter prefix (`show 01M858N9`, case-insensitive). No match
 * is "not found" (exit 1); several are a usage error listing them (exit 2).
 */
export async function resolveSessionId(store: SessionStore, raw: string): Promise<string> {
	const given = raw.trim();
	if (given.length === ID_LENGTH) return assertSessionId(given.toUpperCase());
	const prefix = given.toUpperCase();
	if (!ID_PREFIX.test(prefix)) return assertSessionId(given); // words the invalid id's error
	const matches = (await listSessions(store, { archived: true })).filter((session) => session.id.startsWith(prefix));
	if (matches.length === 1) return (matches[0] as { id: string }).id;
	if (matches.length === 0) {
		throw new AgentSessionError(
			"SESSION_NOT_FOUND",
			`no session id starts with ${prefix}; \`agent-sessions list --all\` shows every session`,
		);
	}
	const shown = matches
		.slice(0, SHOWN_CANDIDATES)
		.map((session) => `${session.id}${session.name ? ` (${session.name})` : ""}`)
		.join(", ");
	const more = matches.length > SHOWN_CANDIDATES ? ` and ${matches.length - SHOWN_CANDIDATES} more` : "";
	throw new UsageError(`${matches.length} sessions start with ${prefix}: ${shown}${more}; give more of the id`);
}

/** The newest session (latest activity, not archived): what `--last` names. */
export async function newestSessionId(store: SessionStore): Promise<string> {
	const page = await store.list({ limit: 1 });
	const newest = page.sessions[0];
	if (newest === undefined) {
		throw new AgentSessionError(
			"SESSION_NOT_FOUND",
			"--last: there are no sessions yet (`agent-sessions create` makes one)",
		);
	}
	return newest.id;
}
