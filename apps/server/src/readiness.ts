import type { SessionStore } from "@agent/session-format";
import { isAgentSessionError } from "@agent/session-format";

/** A well-formed session id no store holds: reading its metadata asks the store a question it must answer. */
const PROBE_ID = "00000000000000000000000000";
/** A probe's answer is reused this long: a load balancer's checks never hammer the database. */
const PROBE_REUSE_MS = 1000;
const PROBE_TIMEOUT_MS = 2000;

export type ReadyState = "starting" | "ready" | "draining";

export interface ReadyAnswer {
	ready: boolean;
	status: ReadyState | "store_unreachable";
	/** Why it is not ready, for a person reading the probe's answer. */
	reason?: string;
}

/**
 * What GET /readyz answers: ready only once the server started, while it is not draining, and
 * while its store answers (a cheap question: the metadata of a session that does not exist, whose
 * SESSION_NOT_FOUND is an answer; a failure or no answer within 2 s is not).
 */
export class Readiness {
	private state: ReadyState = "starting";
	private store: SessionStore | undefined;
	private probe: { at: number; result: Promise<string | undefined> } | undefined;
	private storeProblem: string | undefined;

	/** `onStoreProblem` hears the store fail (with the details, which /readyz does not show: it needs no token) and recover. */
	constructor(private readonly onStoreProblem: (problem: string | undefined) => void = () => {}) {}

	get current(): ReadyState {
		return this.state;
	}

	/** The server serves now, over `store`. */
	started(store: SessionStore): void {
		this.store = store;
		this.state = "ready";
	}

	/** The server stops: from now on /readyz answers 503, whatever the store says. */
	draining(): void {
		this.state = "draining";
	}

	async check(now = Date.now()): Promise<ReadyAnswer> {
		if (this.state === "starting") {
			return { ready: false, status: "starting", reason: "the server is starting (waiting for its store)" };
		}
		if (this.state === "draining" || !this.store) {
			return { ready: false, status: "draining", reason: "the server is shutting down" };
		}
		if (!this.probe || now - this.probe.at >= PROBE_REUSE_MS) {
			this.probe = { at: now, result: probeStore(this.store) };
		}
		const problem = await this.probe.result;
		// Draining may have begun while the store was asked.
		if (this.state !== "ready") return this.check(now);
		if (problem !== this.storeProblem) {
			this.storeProblem = problem;
			this.onStoreProblem(problem);
		}
		if (problem !== undefined) {
			return { ready: false, status: "store_unreachable", reason: "the store does not answer; see the server log" };
		}
		return { ready: true, status: "ready" };
	}
}

/** Undefined when the store answered; else what went wrong. */
async function probeStore(store: SessionStore): Promise<string | undefined> {
	let timer: NodeJS.Timeout | undefined;
	const timeout = new Promise<string>((resolve) => {
		timer = setTimeout(() => resolve(`the store did not answer within ${PROBE_TIMEOUT_MS} ms`), PROBE_TIMEOUT_MS);
	});
	const asked = store.metadata(PROBE_ID).then(
		() => undefined,
		(error: unknown) =>
			isAgentSessionError(error, "SESSION_NOT_FOUND")
				? undefined
				: `the store failed: ${error instanceof Error ? error.message : String(error)}`,
	);
	try {
		return await Promise.race([asked, timeout]);
	} finally {
		clearTimeout(timer);
	}
}
