import type { Readable, Writable } from "node:stream";
import type { AgentSessions } from "@agent/session";
import type { SessionStore } from "@agent/session-format";
import { Output } from "./io/output.js";

type OutStream = Writable & { isTTY?: boolean };

/** What every command gets: where to write, the store home, and the runtime (opened on first use). */
export class CliContext {
	readonly out: Output;
	/** With --json, errors (commander's too) are printed as JSON on stderr. */
	jsonErrors = false;
	private runtime: Promise<AgentSessions> | undefined;
	private reader: Promise<SessionStore> | undefined;
	private homeOption: string | undefined;

	constructor(
		readonly io: {
			stdin: Readable & { isTTY?: boolean };
			stdout: OutStream;
			stderr: OutStream;
			env: NodeJS.ProcessEnv;
		},
	) {
		this.out = new Output(io.stdout, io.stderr, io.env);
	}

	/** Set from the global --home option before a command runs. */
	setHome(home: string | undefined): void {
		this.homeOption = home;
	}

	/**
	 * The runtime over the file store at --home, else $AGENT_HOME, else ~/.agent (reads
	 * config.yaml once). Loaded on first use, so help and usage errors come back at once.
	 */
	sessions(): Promise<AgentSessions> {
		this.runtime ??= import("@agent/session").then(({ AgentSessions }) =>
			AgentSessions.open(this.homeOption === undefined ? {} : { home: this.homeOption }),
		);
		return this.runtime;
	}

	/** The store through the runtime (with config.yaml's durability): for commands that write. */
	async store(): Promise<SessionStore> {
		return (await this.sessions()).store;
	}

	/**
	 * The file store for commands that only read: opened without config.yaml or the LLM stack,
	 * which reading needs neither of (what makes `list`, `show` or `tail` start fast).
	 */
	readStore(): Promise<SessionStore> {
		this.reader ??=
			this.runtime?.then((runtime) => runtime.store) ??
			import("@agent/session-fs").then(({ createFileStore, resolveHome }) =>
				createFileStore({ home: resolveHome(this.homeOption) }),
			);
		return this.reader;
	}

	/** The session an id argument names: a whole id, or a unique prefix of one (see session-ids.ts). */
	async sessionId(raw: string): Promise<string> {
		const { resolveSessionId } = await import("./session-ids.js");
		return resolveSessionId(await this.readStore(), raw);
	}
}
