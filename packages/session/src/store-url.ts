import { fileURLToPath } from "node:url";
import { AgentSessionError, type SessionStore } from "@agent/session-format/reading";
import { createFileStore, resolveHome } from "@agent/session-fs";

/** Where sessions live: a file store's home directory, or a PostgreSQL database. */
export type StoreLocation = { kind: "file"; home: string } | { kind: "postgres"; url: string };

/**
 * Reads a store location as `--store`, AGENT_STORE and config.yaml's `store:` give it:
 * `postgres://…` (or `postgresql://…`) is PostgreSQL; `file://…` or a path is a file store's home.
 */
export function parseStoreLocation(spec: string): StoreLocation {
	const text = spec.trim();
	if (text.length === 0) {
		throw new AgentSessionError(
			"INVALID_ARGUMENT",
			"@agent/session: a store location cannot be empty; give postgres://user@host/db, file:///path or a directory",
		);
	}
	if (/^postgres(ql)?:\/\//i.test(text)) return { kind: "postgres", url: text };
	if (/^file:\/\//i.test(text)) return { kind: "file", home: fileURLToPath(text) };
	if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
		throw new AgentSessionError(
			"INVALID_ARGUMENT",
			`@agent/session: ${JSON.stringify(text.split("://")[0])} stores are not supported; use postgres://user@host:5432/database, file:///path, or a directory`,
		);
	}
	return { kind: "file", home: resolveHome(text) };
}

export interface OpenStoreOptions {
	durability?: "write" | "fsync";
	maxLineBytes?: number;
	/** A PostgreSQL store's pool sizes (config.yaml's postgres:, the server's --pg-* flags). */
	postgres?: PgCapacity;
}

/** How many connections a PostgreSQL store opens: for reads and writes, and one per held lease. */
export interface PgCapacity {
	/** Connections for reads and writes (the store's maxConnections; default 10). */
	poolSize?: number;
	/** Sessions whose turns run at once on this instance, one connection each (default 25). */
	maxLeases?: number;
}

/**
 * Opens the store at a location. PostgreSQL: loads @agent/session-pg (an optional peer dependency,
 * loaded for a postgres:// location only), connects and applies its migrations first.
 */
export async function openStoreAt(location: StoreLocation, options: OpenStoreOptions = {}): Promise<SessionStore> {
	if (location.kind === "postgres") {
		const { poolSize, maxLeases } = options.postgres ?? {};
		return (await loadPostgresStore()).openPgStore({
			url: location.url,
			...(poolSize !== undefined ? { maxConnections: poolSize } : {}),
			...(maxLeases !== undefined ? { maxLeases } : {}),
		});
	}
	return createFileStore({
		home: location.home,
		...(options.durability ? { durability: options.durability } : {}),
		...(options.maxLineBytes !== undefined ? { maxLineBytes: options.maxLineBytes } : {}),
	});
}

/**
 * The store location in force: `--store` (given), else AGENT_STORE, else config.yaml's `store:`,
 * else the home directory (--home, $AGENT_HOME, ~/.agent). An explicit --home is a choice too: it
 * beats AGENT_STORE (its own config.yaml's `store:` still applies).
 */
export function chooseStoreLocation(
	given: string | undefined,
	configured: string | undefined,
	home: { dir: string; explicit: boolean },
): StoreLocation {
	const fromEnvironment = home.explicit ? undefined : process.env.AGENT_STORE || undefined;
	const spec = given ?? fromEnvironment ?? configured;
	return spec === undefined ? { kind: "file", home: home.dir } : parseStoreLocation(spec);
}

/** Where a store keeps its sessions, for a startup line: the file store's home, or the database URL without its password. */
export function describeStore(store: SessionStore): string | undefined {
	if (store.describe) return store.describe();
	const home = (store as { home?: unknown }).home;
	return typeof home === "string" ? home : undefined;
}

const POSTGRES_PACKAGE = "@agent/session-pg";

/** @agent/session-pg, or an error that says to install it (a file store's users never do). */
async function loadPostgresStore(): Promise<typeof import("@agent/session-pg")> {
	try {
		return await import("@agent/session-pg");
	} catch (error) {
		if (!isMissing(error, POSTGRES_PACKAGE)) throw error;
		throw new AgentSessionError(
			"INVALID_ARGUMENT",
			`@agent/session: a postgres:// store needs the package ${POSTGRES_PACKAGE}, which is not installed; install it beside @agent/session (npm install ${POSTGRES_PACKAGE}), or use a file store (a directory or file:///path)`,
			{ cause: error },
		);
	}
}

/** True when `error` says that `name` itself could not be found (not a module it imports). */
function isMissing(error: unknown, name: string): boolean {
	const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
	if (code !== "ERR_MODULE_NOT_FOUND" && code !== "MODULE_NOT_FOUND") return false;
	return typeof message === "string" && (message.includes(`'${name}'`) || message.includes(`"${name}"`));
}
