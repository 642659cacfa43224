import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Readable, Writable } from "node:stream";
import type { AgentSessions, StoreLocation } from "@agent/session";
import type { SessionStore } from "@agent/session-format/reading";
import type { Command } from "commander";
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
	private storeOption: string | undefined;
	private buildWholeProgram: (() => Promise<Command>) | undefined;

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

	/** The global --home option, when given. */
	get home(): string | undefined {
		return this.homeOption;
	}

	/** Set from the global --store option before a command runs. */
	setStore(store: string | undefined): void {
		this.storeOption = store;
	}

	/**
	 * Set by buildProgram: how to build the program with every command loaded. The context is
	 * handed the builder rather than importing program.ts, which imports the commands that take
	 * the context.
	 */
	setProgramBuilder(build: () => Promise<Command>): void {
		this.buildWholeProgram = build;
	}

	/** The program with every command loaded (what `completion` reads the options from). */
	wholeProgram(): Promise<Command> {
		if (this.buildWholeProgram === undefined) {
			throw new Error("agent-sessions: no program yet; build one with buildProgram(ctx) before running a command");
		}
		return this.buildWholeProgram();
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

	/** The store through the runtime (with config.yaml's durability): for commands that write. */
	async store(): Promise<SessionStore> {
		return (await this.sessions()).store;
	}

	/**
	 * Where the store is, chosen as the runtime chooses it (--store, AGENT_STORE, config.yaml's
	 * store:, the home), without opening it: for commands that work on the files or the database
	 * themselves (backup).
	 */
	async storeLocation(): Promise<StoreLocation> {
		const [{ chooseStoreLocation, loadConfig }, { resolveHome }] = await Promise.all([
			import("@agent/session"),
			import("@agent/session-fs"),
		]);
		const home = resolveHome(this.homeOption);
		const config = await loadConfig(home);
		return chooseStoreLocation(this.storeOption, config.store, { dir: home, explicit: this.homeOption !== undefined });
	}

	/**
	 * The file store for commands that only read: opened without config.yaml or the LLM stack,
	 * which reading needs neither of (what makes `list`, `show` or `tail` start fast).
	 */
	readStore(): Promise<SessionStore> {
		this.reader ??=
			this.runtime?.then((runtime) => runtime.store) ??
			import("@agent/session-fs").then(async ({ createFileStore, resolveHome }) => {
				const home = resolveHome(this.homeOption);
				// Another store (--store, AGENT_STORE, config.yaml's store:) is opened by the runtime.
				if (this.storeOption !== undefined || (await this.mayChooseAnotherStore(home))) return this.store();
				return createFileStore({ home });
			});
		return this.reader;
	}

	/**
	 * Whether the store selection might not be the file store at `home`: AGENT_STORE (unless --home
	 * was given), or a config.yaml that names a `store:`. The runtime then chooses
	 * (chooseStoreLocation); a read command parses config.yaml only when there is one.
	 */
	private async mayChooseAnotherStore(home: string): Promise<boolean> {
		if (this.homeOption === undefined && this.io.env.AGENT_STORE) return true;
		if (!existsSync(join(home, "config.yaml"))) return false;
		const { configNamesStore } = await import("./store-choice.js");
		return configNamesStore(home);
	}

	/** The session an id argument names: a whole id, or a unique prefix of one (see session-ids.ts). */
	async sessionId(raw: string): Promise<string> {
		const { resolveSessionId } = await import("./session-ids.js");
		return resolveSessionId(await this.readStore(), raw);
	}
}
