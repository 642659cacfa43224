import fs from "node:fs/promises";
import os from "node:os";

export interface LoadFigures {
	clients: number;
	messagesPerClient: number;
	sessions: number;
	totalMessages: number;
	wallSeconds: number;
	latenciesMs: number[];
	errors: number;
	interleavings: number;
	eventsPerSession: number[];
	/** CPU time (user + system) the process used during the run, in seconds. */
	cpuSeconds: number;
	/** Compaction records the runtime appended on its own while the sessions grew. */
	compactions: number;
}

/** The q-quantile (0..1) of sorted values, nearest-rank. */
export function quantile(sorted: readonly number[], q: number): number {
	if (sorted.length === 0) return Number.NaN;
	const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
	return sorted[rank] as number;
}

export function summarize(figures: LoadFigures) {
	const sorted = [...figures.latenciesMs].sort((a, b) => a - b);
	return {
		throughput: figures.totalMessages / figures.wallSeconds,
		p50: quantile(sorted, 0.5),
		p99: quantile(sorted, 0.99),
		max: sorted[sorted.length - 1] ?? Number.NaN,
	};
}

/** Writes the figures as markdown, with the machine they were measured on. */
export async function writeLoadReport(file: string, figures: LoadFigures): Promise<void> {
	const { throughput, p50, p99, max } = summarize(figures);
	const cpus = os.cpus();
	const text = `# agent-sessions-server under load

Measured by \`pnpm --filter agent-sessions-server load\` (apps/server/load/load.test.ts), which rewrites this file up to
the sections measured with real server processes (the last ones, which it keeps).

## Setup

- ${figures.clients} HTTP clients × ${figures.messagesPerClient} messages = ${figures.totalMessages} messages, spread over ${figures.sessions} sessions
  (client *c* talks to session *c mod ${figures.sessions}*, so ${figures.clients / figures.sessions} clients race on every session).
- Every message is \`POST /api/sessions/:id/messages?wait=1\`: the latency is queueing behind the session's
  other turns (S7.10) plus the turn itself (the user record, the streamed reply, the assistant record).
- The offline demo model (pi-ai's faux provider, ~600 tokens/s per reply stream), the file store on local disk
  (durability \`write\`), one WebSocket per session counting the turn events. Server and clients in one process, over loopback.
- Machine: ${cpus.length} cores (${cpus[0]?.model.trim() ?? "unknown CPU"}), ${Math.round(os.totalmem() / 2 ** 30)} GiB RAM, Node ${process.version}, ${os.platform()} ${os.release()}.

## Results

| measure | value |
| --- | --- |
| wall time | ${figures.wallSeconds.toFixed(1)} s |
| throughput | ${throughput.toFixed(1)} messages/s |
| latency p50 | ${p50.toFixed(0)} ms |
| latency p99 | ${p99.toFixed(0)} ms |
| latency max | ${max.toFixed(0)} ms |
| errors | ${figures.errors} |
| interleaved turns | ${figures.interleavings} |
| turn.completed events per session socket | ${[...new Set(figures.eventsPerSession)].join(", ")} |
| one turn, end to end (wall time ÷ turns per session) | ${((figures.wallSeconds * 1000 * figures.sessions) / figures.totalMessages).toFixed(0)} ms |
| CPU used (server and clients) | ${figures.cpuSeconds.toFixed(1)} s, ${((100 * figures.cpuSeconds) / (figures.wallSeconds * cpus.length)).toFixed(0)}% of ${cpus.length} cores |
| automatic compactions | ${figures.compactions} |

One run's figures; repeated runs on a shared machine vary by a third or so either way.

Checks: every request answered 200 with its own user record followed at once by its reply; every session's
log alternates user, assistant, and each reply quotes the question before it (no interleaving); every
session's WebSocket saw every turn complete.

Reading it: a session runs one turn at a time, so with ${figures.clients / figures.sessions} clients per session most of the latency is
waiting in the session's queue (p50 ≈ ${figures.clients / figures.sessions} turns' worth); throughput is bounded by ${figures.sessions} sessions × one turn
at a time, and a turn's time is mostly the demo model's simulated streaming, not the server: the
CPU stays far from busy. ${
		figures.compactions > 0
			? "The sessions grew past the compaction threshold during the run, so the figures include automatic compactions (each one more model call inside a turn)."
			: "The sessions stayed below the compaction threshold, so no automatic compaction ran."
	}

${await keptSections(file)}`;
	await fs.writeFile(file, text);
}

/**
 * Sections this test does not measure (real server processes, PostgreSQL: tooling/bench's
 * send-latency and server-capacity figures) follow this line in the report; a rewrite keeps them.
 */
export const KEPT_MARKER =
	"<!-- The sections below are measured by tooling/bench with real server processes; rewriting this report keeps them. -->";

async function keptSections(file: string): Promise<string> {
	let existing = "";
	try {
		existing = await fs.readFile(file, "utf8");
	} catch {
		// no report yet: nothing to keep
	}
	const at = existing.indexOf(KEPT_MARKER);
	return at >= 0 ? existing.slice(at) : `${KEPT_MARKER}\n`;
}
