import { join } from "node:path";
import { sessionPaths } from "@agent/session-fs";
import { CLI_BIN } from "./cases/cli-run.js";
import { type ListingDataset, listingDataset, type SessionDataset, sessionDataset } from "./generate/datasets.js";
import { importRows } from "./import-rows.js";
import { type Contender, interleaved } from "./interleave.js";
import type { Measurement } from "./measure.js";
import type { Plan } from "./plan.js";
import type { Row } from "./row.js";

export interface Datasets {
	resume: SessionDataset[];
	/** Absent when no wanted group needs it. */
	linear?: SessionDataset;
	/** Linear sessions for the compaction rows, smallest first. */
	compaction: SessionDataset[];
	listings: ListingDataset[];
	/** For the CLI and search rows (absent when neither is wanted). */
	cliSession?: SessionDataset;
	cliListing?: ListingDataset;
}

type Log = (line: string) => void;

/** The groups of cases `--only` can pick. */
export const CASE_GROUPS = [
	"resume",
	"linear",
	"list",
	"append",
	"fsync",
	"tail",
	"compaction",
	"cli",
	"search",
	"import",
] as const;
export type CaseGroup = (typeof CASE_GROUPS)[number];

/** Generates (or finds cached) the inputs of the wanted groups of cases. */
export async function prepareDatasets(
	plan: Plan,
	dataRoot: string,
	log: Log,
	want: (group: CaseGroup) => boolean = () => true,
): Promise<Datasets> {
	const resume: SessionDataset[] = [];
	if (want("resume") || want("tail")) {
		for (const spec of plan.resume) resume.push(await sessionDataset(dataRoot, spec, log));
	}
	const linear = want("linear") ? await sessionDataset(dataRoot, plan.linear, log) : undefined;
	const compaction: SessionDataset[] = [];
	for (const spec of want("compaction") ? plan.compaction : [])
		compaction.push(await sessionDataset(dataRoot, spec, log));
	const listings: ListingDataset[] = [];
	for (const listing of want("list") ? plan.listings : []) {
		listings.push(await listingDataset(dataRoot, listing.sessions, listing.bytesEach, log));
	}
	const datasets: Datasets = { resume, linear, compaction, listings };
	if (want("cli")) datasets.cliSession = await sessionDataset(dataRoot, plan.cli.session, log);
	if (want("cli") || want("search")) {
		datasets.cliListing = await listingDataset(dataRoot, plan.cli.listing.sessions, plan.cli.listing.bytesEach, log);
	}
	return datasets;
}

export function sizeLabel(bytes: number): string {
	if (bytes >= 1e9) return `${+(bytes / 1e9).toFixed(1)} GB`;
	if (bytes >= 1e6) return `${+(bytes / 1e6).toFixed(1)} MB`;
	return `${Math.round(bytes / 1e3)} KB`;
}

/** Runs every case of the plan, one child process at a time (the machine has few cores). */
export async function runSuite(
	plan: Plan,
	data: Datasets,
	scratch: string,
	log: Log,
	want: (group: CaseGroup) => boolean = () => true,
): Promise<Row[]> {
	const rows: Row[] = [];
	const t = plan.timeoutMs;
	const { fast, slow, appends } = plan.runs;
	const done = (row: Row) => {
		rows.push(row);
		log(`  ${row.section} — ${row.label}: ${summary(row)}`);
	};
	const compare = async (ours?: Contender, pi?: Contender, floor?: Contender) => {
		const [o, p, f] = await interleaved([ours, pi, floor], t);
		return { ours: o, pi: p, floor: f };
	};

	for (const dataset of want("resume") ? data.resume : []) {
		const big = dataset.written.bytes >= 50e6;
		done({
			section: "Resume, late compaction",
			label: sizeLabel(dataset.written.bytes),
			...(await compare(
				{ name: "resume-ours", params: { home: dataset.oursHome, id: dataset.oursId, runs: fast } },
				{ name: "resume-pi", params: { path: dataset.piPath, runs: big ? slow : fast } },
			)),
			liveBytes: dataset.written.bytes - (dataset.written.compaction?.firstKeptOffset ?? 0),
			inputBytes: dataset.written.bytes,
		});
	}

	const linear = data.linear;
	if (linear && want("linear")) {
		const log = sessionPaths(linear.oursHome, linear.oursId).log;
		done({
			section: "Resume, linear (no compaction)",
			label: sizeLabel(linear.written.bytes),
			...(await compare(
				{ name: "resume-ours", params: { home: linear.oursHome, id: linear.oursId, runs: slow + 1 } },
				{ name: "resume-pi", params: { path: linear.piPath, runs: slow } },
				{ name: "read-floor", params: { path: log, keep: false, runs: slow + 1 } },
			)),
			inputBytes: linear.written.bytes,
		});
		done({
			section: "Resume, linear (no compaction)",
			label: `${sizeLabel(linear.written.bytes)}: the floor keeping every parsed line`,
			...(await compare(undefined, undefined, {
				name: "read-floor",
				params: { path: log, keep: true, runs: slow + 1 },
			})),
			inputBytes: linear.written.bytes,
		});
	}

	for (let i = 0; want("list") && i < plan.listings.length; i++) {
		const listing = plan.listings[i] as Plan["listings"][number];
		const dataset = data.listings[i] as ListingDataset;
		done({
			section: "List sessions",
			label: `${listing.sessions.toLocaleString("en-US")} × ${sizeLabel(listing.bytesEach)}`,
			...(await compare(
				{ name: "list-ours", params: { home: dataset.oursHome, runs: fast } },
				listing.pi ? { name: "list-pi", params: { dir: dataset.piDir, runs: slow } } : undefined,
			)),
			inputBytes: dataset.oursBytes,
		});
		if (listing.pi && i === 0) {
			done({
				section: "List sessions",
				label: `${listing.sessions.toLocaleString("en-US")} × ${sizeLabel(listing.bytesEach)}, again through the same store`,
				...(await compare({ name: "list-ours", params: { home: dataset.oursHome, sameStore: true, runs: fast } })),
				inputBytes: dataset.oursBytes,
			});
		}
	}

	const records = plan.appendRecords;
	const n = records.toLocaleString("en-US");
	const dir = join(scratch, "append");
	const batched = `${n} records, ${plan.appendBatch} per call`;
	if (want("append")) {
		done({
			section: "Append, lease held",
			label: `${n} records, 1 per call`,
			records,
			...(await compare(
				{ name: "append-ours", params: { dir, records, batch: 1, durability: "write", runs: appends } },
				{ name: "append-pi", params: { dir, records, runs: appends } },
				{ name: "append-floor", params: { dir, records, fsync: false, runs: appends } },
			)),
		});
		done({
			section: "Append, lease held",
			label: batched,
			records,
			...(await compare({
				name: "append-ours",
				params: { dir, records, batch: plan.appendBatch, durability: "write", runs: appends },
			})),
		});
	}
	if (want("fsync")) {
		done({
			section: "Append, lease held, fsync",
			label: `${n} records, 1 per call`,
			records,
			...(await compare(
				{ name: "append-ours", params: { dir, records, batch: 1, durability: "fsync", runs: 1 } },
				undefined,
				{ name: "append-floor", params: { dir, records, fsync: true, runs: 1 } },
			)),
		});
		done({
			section: "Append, lease held, fsync",
			label: batched,
			records,
			...(await compare({
				name: "append-ours",
				params: { dir, records, batch: plan.appendBatch, durability: "fsync", runs: 1 },
			})),
		});
	}

	for (const dataset of want("tail") ? data.resume : []) {
		done({
			section: `Tail (last ${plan.tailRecords} records)`,
			label: sizeLabel(dataset.written.bytes),
			...(await compare({
				name: "tail-ours",
				params: { home: dataset.oursHome, id: dataset.oursId, records: plan.tailRecords, runs: fast },
			})),
			inputBytes: dataset.written.bytes,
		});
	}

	for (const dataset of want("compaction") ? data.compaction : []) {
		// A plan of a small session takes milliseconds: one timed run per process would be noise
		// (a single recompilation decides it), so small sessions get the fast cases' runs, as resume does.
		const runs = dataset.written.bytes >= 50e6 ? slow : fast;
		done({
			section: "Compaction preparation, path in memory",
			label: `linear ${sizeLabel(dataset.written.bytes)}`,
			...(await compare(
				{
					name: "compaction-ours",
					params: { home: dataset.oursHome, id: dataset.oursId, from: "memory", runs },
				},
				{ name: "compaction-pi", params: { path: dataset.piPath, runs } },
			)),
			inputBytes: dataset.written.bytes,
		});
	}
	for (const dataset of want("compaction") ? data.compaction : []) {
		done({
			section: "Compaction preparation, streamed from the log (read included)",
			label: `linear ${sizeLabel(dataset.written.bytes)}`,
			...(await compare({
				name: "compaction-ours",
				params: { home: dataset.oursHome, id: dataset.oursId, from: "log", runs: slow },
			})),
			inputBytes: dataset.written.bytes,
		});
	}
	const middle = data.compaction[1];
	if (middle && want("compaction")) {
		done({
			section: "compact --dry-run (the plan, no prompts)",
			label: `linear ${sizeLabel(middle.written.bytes)}`,
			...(await compare({ name: "dry-run-ours", params: { home: middle.oursHome, id: middle.oursId, runs: slow } })),
			inputBytes: middle.written.bytes,
		});
		done({
			section: "Compaction end to end (demo summarizer, chunked)",
			label: `linear ${sizeLabel(middle.written.bytes)}`,
			...(await compare({
				name: "compact-ours",
				params: { home: middle.oursHome, id: middle.oursId, scratch, runs: 1 },
			})),
			inputBytes: middle.written.bytes,
		});
	}
	await cliRows(plan, data, compare, done);
	if (want("import")) await importRows(plan, compare, done);
	if (want("search") && data.cliListing) {
		const listing = data.cliListing;
		const label = `${plan.cli.listing.sessions.toLocaleString("en-US")} × ${sizeLabel(plan.cli.listing.bytesEach)}`;
		for (const [query, what] of [
			["torn tail", "a phrase in many messages, every hit"],
			["quokka", "a word in none"],
		] as const) {
			done({
				section: "Search message text",
				label: `${label}: ${what} ("${query}")`,
				...(await compare({
					name: "search-ours",
					params: { home: listing.oursHome, query, limit: 1_000_000, runs: fast },
				})),
				inputBytes: listing.oursBytes,
			});
		}
	}
	return rows;
}

type Compare = (ours?: Contender, pi?: Contender, floor?: Contender) => Promise<Pick<Row, "ours" | "pi" | "floor">>;

/**
 * The CLI as a whole process, start to exit, beside a bare `node -e 0` (the floor) and pi's
 * in-process figure for the same work where it has one (listing, resume).
 */
async function cliRows(plan: Plan, data: Datasets, compare: Compare, done: (row: Row) => void): Promise<void> {
	const session = data.cliSession;
	const listing = data.cliListing;
	if (!session || !listing) return;
	const runs = plan.runs.fast;
	const floor: Contender = { name: "cli-run", params: { args: ["-e", "0"], runs } };
	const cli = (...args: string[]): Contender => ({ name: "cli-run", params: { args: [CLI_BIN, ...args], runs } });
	const big = sizeLabel(session.written.bytes);
	const many = `${plan.cli.listing.sessions.toLocaleString("en-US")} sessions`;
	const section = "CLI, whole process (floor: node -e 0)";
	const row = async (label: string, ours: Contender, pi?: Contender) =>
		done({ section, label, ...(await compare(ours, pi, floor)) });
	await row("--version", cli("--version"));
	await row(
		`list --json, ${many}`,
		cli("--home", listing.oursHome, "list", "--json"),
		plan.cli.listing.sessions <= 2_000
			? { name: "list-pi", params: { dir: listing.piDir, runs: plan.runs.slow } }
			: undefined,
	);
	await row(
		`context ID --json, ${big} with a late compaction`,
		cli("--home", session.oursHome, "context", session.oursId, "--json"),
		{ name: "resume-pi", params: { path: session.piPath, runs: plan.runs.slow } },
	);
	await row(`show ID --last 20, ${big}`, cli("--home", session.oursHome, "show", session.oursId, "--last", "20"));
	await row(`tail ID, ${big}`, cli("--home", session.oursHome, "tail", session.oursId));
	await row(`stats, ${many}`, cli("--home", listing.oursHome, "stats"));
}

function summary(row: Row): string {
	const part = (name: string, m: Measurement | undefined) =>
		m === undefined
			? ""
			: `${name} ${m.status === "ok" ? `${m.medianMs.toFixed(1)} ms (cpu ${m.medianCpuMs?.toFixed(1)})` : m.status}`;
	return [part("ours", row.ours), part("pi", row.pi), part("floor", row.floor)].filter(Boolean).join(", ");
}
