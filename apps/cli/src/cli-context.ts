import type { Readable, Writable } from "node:stream";
import type { AgentSessions } from "@agent/session";
import type { SessionStore } from "@agent/session-format";
import { Output } from "./io/output.js";

type OutStream = Writable & { isTTY?: boolean };

/** What every command gets: where to write, the store home, and the runtime (opened on first use). */
export class CliContext {
	readonly out: Output;
	private runtime: Promise<AgentSessions> | undefined;
	private homeOption: string | undefined;
	private storeOption: string | undefined;

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

	/** Set from the global --store option before a command runs. */
	setStore(store: string | undefined): void {
		this.storeOption = store;
	}

	/**
	 * The runtime over the store at --store, else AGENT_STORE / config.yaml's store:, else the
	 * file store at --home, else $AGENT_HOME, else ~/.agent (reads
	 * config.yaml once). Loaded on first use, so help and usage errors come back at once.
	 */
	sessions(): Promise<AgentSessions> {
		this.runtime ??= import("@agent/session").then(({ AgentSessions }) =>
			AgentSessions.open({
				...(this.homeOption === undefined ? {} : { home: this.homeOption }),
				...(this.storeOption === undefined ? {} : { storeUrl: this.storeOption }),
			}),
		);
		return this.runtime;
	}

	async store(): Promise<SessionStore> {
		return (await this.sessions()).store;
	}
}
