/** How hard each case pushes: `full` gives the figures of docs/reliability.md, `ci` a bounded run of a few minutes. */
export interface Profile {
	name: "full" | "ci";
	torture: {
		/** SIGKILLs in all, across the sessions. */
		kills: number;
		/** Writers running (and being killed) at once. */
		parallel: number;
		sessions: number;
		/** A kill lands between 0 and this many ms after the writer said ready. */
		maxKillDelayMs: number;
	};
	concurrent: { writers: number; appendsPerWriter: number; sessions: number };
	diskFull: { rounds: number };
	fuzzLines: { runs: number; hugeStringBytes: number; oversizedLineBytes: number };
	fuzzServer: { requests: number };
	staleLocks: { staleMs: number; rounds: number };
	metadataCrash: { rounds: number };
	/** WebSocket readers that stop reading, and turns of 3.5 MiB events. */
	slowReaders: { readers: number; turns: number };
	/** SIGTERMs sent to a server with turns running. */
	shutdown: { rounds: number };
	/** Two server instances over PostgreSQL: concurrent clients, sends each, sessions. */
	pgInstances: { clients: number; sendsPerClient: number; sessions: number };
}

const full: Profile = {
	name: "full",
	torture: { kills: 600, parallel: 3, sessions: 2, maxKillDelayMs: 400 },
	concurrent: { writers: 8, appendsPerWriter: 1000, sessions: 16 },
	diskFull: { rounds: 20 },
	fuzzLines: { runs: 2000, hugeStringBytes: 64 << 20, oversizedLineBytes: (256 << 20) + 1024 },
	fuzzServer: { requests: 5000 },
	staleLocks: { staleMs: 2000, rounds: 5 },
	metadataCrash: { rounds: 50 },
	slowReaders: { readers: 150, turns: 3 },
	shutdown: { rounds: 6 },
	pgInstances: { clients: 16, sendsPerClient: 40, sessions: 12 },
};

const ci: Profile = {
	name: "ci",
	torture: { kills: 100, parallel: 2, sessions: 2, maxKillDelayMs: 300 },
	concurrent: { writers: 8, appendsPerWriter: 100, sessions: 8 },
	diskFull: { rounds: 4 },
	fuzzLines: { runs: 200, hugeStringBytes: 4 << 20, oversizedLineBytes: 0 },
	fuzzServer: { requests: 600 },
	staleLocks: { staleMs: 2000, rounds: 1 },
	metadataCrash: { rounds: 10 },
	slowReaders: { readers: 40, turns: 2 },
	shutdown: { rounds: 2 },
	pgInstances: { clients: 6, sendsPerClient: 12, sessions: 4 },
};

export function profileNamed(name: string | undefined): Profile {
	if (name === undefined || name === "" || name === "full") return full;
	if (name === "ci") return ci;
	throw new Error(`unknown RELIABILITY_PROFILE ${JSON.stringify(name)}: use "full" or "ci"`);
}
