import type { SessionStore } from "@agent/session-format/reading";
import { SessionShell } from "@agent/session-format/store-kit";
import { FileBackend } from "./backend.js";
import type { FileStoreOptions } from "./options.js";
import { type SessionPaths, sessionPaths } from "./paths.js";

/**
 * The filesystem SessionStore: `<home>/sessions/<ULID>/session.jsonl` + `metadata.json`. The store
 * shell of @agent/session-format (createSessionStore) over FileBackend (backend.ts), with the
 * store's home and the paths of its sessions for those who look at the files.
 */
export class FileSessionStore extends SessionShell {
	readonly home: string;

	// The file store always keeps a turn journal and can watch.
	declare readonly watch: NonNullable<SessionStore["watch"]>;
	declare readonly noteAcceptedTurn: NonNullable<SessionStore["noteAcceptedTurn"]>;
	declare readonly acceptedTurns: NonNullable<SessionStore["acceptedTurns"]>;
	declare readonly forgetAcceptedTurn: NonNullable<SessionStore["forgetAcceptedTurn"]>;

	constructor(options: FileStoreOptions = {}) {
		const backend = new FileBackend(options);
		super(backend);
		this.home = backend.home;
	}

	/** The directory and files of a session (validates the id; nothing else becomes a path). */
	pathsOf(id: string): SessionPaths {
		return sessionPaths(this.home, id);
	}
}

/** The filesystem store; see FileStoreOptions. */
export function createFileStore(options: FileStoreOptions = {}): FileSessionStore {
	return new FileSessionStore(options);
}
