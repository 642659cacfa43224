import { cpuRatio, formatBytes, formatMs, formatRatio, ratio, rssGrowth } from "./format.js";
import { IMPORT_SECTION } from "./import-rows.js";
import type { Row } from "./row.js";

export interface GoalResult {
	goal: string;
	/** undefined: a figure to report, not a goal to meet (or it could not be measured). */
	met: boolean | undefined;
	detail: string;
}

/** A fixed allowance for the memory goal: code, JIT, the 256 KiB read buffer and GC slack. */
export const MEMORY_CONSTANT = 32 << 20;

const section = (rows: readonly Row[], name: string) =>
	rows.filter((row) => row.section === name || row.section.startsWith(`${name} (`));

/** Checks the issue's goals against one run's rows. */
export function evaluateGoals(rows: readonly Row[]): GoalResult[] {
	const goals: GoalResult[] = [];
	const resume = section(rows, "Resume, late compaction");
	const [small, middle, large] = resume;
	if (middle) {
		const r = ratio(middle.pi, middle.ours);
		goals.push({
			goal: `Resume with a late compaction at ${middle.label}: at least 20x faster than pi`,
			met: r === undefined ? undefined : r >= 20,
			detail: `${formatRatio(r)} (CPU ${formatRatio(cpuRatio(middle.pi, middle.ours))}; ours ${formatMs(middle.ours?.medianMs ?? Number.NaN)})`,
		});
	}
	if (small && large) {
		const r = ratio(large.ours, small.ours);
		goals.push({
			goal: `Resume cost follows the kept context: ${large.label} within 2x of ${small.label}`,
			met: r === undefined ? undefined : r <= 2,
			detail: `${formatRatio(r)} (${formatMs(large.ours?.medianMs ?? Number.NaN)} vs ${formatMs(small.ours?.medianMs ?? Number.NaN)})`,
		});
		goals.push({
			goal: `Ours opens ${large.label}; pi cannot`,
			met: large.ours?.status === "ok",
			detail: `ours: ${large.ours?.status}; pi: ${large.pi?.status}${large.pi?.reason ? ` (${large.pi.reason})` : ""}`,
		});
	}
	const [linear, keepFloor] = section(rows, "Resume, linear (no compaction)");
	if (linear) {
		const r = ratio(linear.ours, linear.floor);
		const kept = keepFloor?.floor;
		goals.push({
			goal: `Linear resume at ${linear.label}: within 1.5x of the JSON.parse floor`,
			met: r === undefined ? undefined : r <= 1.5,
			detail:
				`${formatRatio(r)} (CPU ${formatRatio(cpuRatio(linear.ours, linear.floor))}); ` +
				`against the floor that keeps what it parsed ${formatRatio(ratio(linear.ours, kept))} ` +
				`(CPU ${formatRatio(cpuRatio(linear.ours, kept))}); pi/ours ${formatRatio(ratio(linear.pi, linear.ours))}`,
		});
	}
	const listings = section(rows, "List sessions").filter((row) => !row.label.includes("again"));
	for (const row of listings.filter((row) => row.pi)) {
		const r = ratio(row.pi, row.ours);
		goals.push({
			goal: `List ${row.label}: at least 30x faster than pi's SessionManager.list`,
			met: r === undefined ? undefined : r >= 30,
			detail: `${formatRatio(r)} (CPU ${formatRatio(cpuRatio(row.pi, row.ours))}); peak RSS growth ours ${formatBytes(rssGrowth(row.ours))}, pi ${formatBytes(rssGrowth(row.pi))}`,
		});
	}
	const [listSmall, , listLarge] = listings;
	if (listSmall && listLarge) {
		const a = rssGrowth(listSmall.ours);
		const b = rssGrowth(listLarge.ours);
		goals.push({
			goal: `Listing memory does not grow with session size (${listLarge.label} vs ${listSmall.label})`,
			met: a === undefined || b === undefined ? undefined : b <= a * 1.5 + (4 << 20),
			detail: `${formatBytes(b)} vs ${formatBytes(a)} for ${((listLarge.inputBytes ?? 0) / (listSmall.inputBytes || 1)).toFixed(0)}x the bytes`,
		});
	}
	const [appendOne] = section(rows, "Append, lease held");
	if (appendOne) {
		const r = ratio(appendOne.pi, appendOne.ours);
		goals.push({
			goal: `Append ${appendOne.label}: throughput at least pi's appendFileSync path`,
			met: r === undefined ? undefined : r >= 1,
			detail: `pi/ours ${formatRatio(r)} (CPU ${formatRatio(cpuRatio(appendOne.pi, appendOne.ours))}); ${perSecond(appendOne, "ours")} vs pi ${perSecond(appendOne, "pi")}`,
		});
	}
	for (const row of section(rows, "Append, lease held, fsync")) {
		goals.push({
			goal: `Append with fsync, ${row.label}: the figure`,
			met: undefined,
			detail: `${perSecond(row, "ours")}${row.floor ? `; floor (write + fdatasync) ${perSecond(row, "floor")}` : ""}`,
		});
	}
	const tails = rows.filter((row) => row.section.startsWith("Tail"));
	const [tailSmall] = tails;
	const tailLarge = tails[tails.length - 1];
	if (tailSmall && tailLarge && tailLarge !== tailSmall) {
		const r = ratio(tailLarge.ours, tailSmall.ours);
		const gap = (tailLarge.ours?.medianMs ?? Number.NaN) - (tailSmall.ours?.medianMs ?? Number.NaN);
		goals.push({
			goal: `Tail of ${tailLarge.label}: constant time (within 2x of ${tailSmall.label}, or under 1 ms apart)`,
			met: r === undefined ? undefined : r <= 2 || gap < 1,
			detail: `${formatMs(tailLarge.ours?.medianMs ?? Number.NaN)} vs ${formatMs(tailSmall.ours?.medianMs ?? Number.NaN)}`,
		});
	}
	if (large?.liveBytes !== undefined) {
		const growth = rssGrowth(large.ours);
		const bound = 2 * large.liveBytes + MEMORY_CONSTANT;
		goals.push({
			goal: `Peak memory of resume at ${large.label}: at most 2x the kept context + ${formatBytes(MEMORY_CONSTANT)}`,
			met: growth === undefined ? undefined : growth <= bound,
			detail: `peak RSS growth ${formatBytes(growth)}; kept context ${formatBytes(large.liveBytes)} on disk; bound ${formatBytes(bound)}; at ${small?.label ?? "?"}: ${formatBytes(rssGrowth(small?.ours))}`,
		});
	}
	goals.push(...compactionGoals(rows));
	return goals;
}

/** A compaction's extra memory must stay under this: a few chunks, the code and GC slack. */
export const COMPACTION_MEMORY_BOUND = 64 << 20;

function compactionGoals(rows: readonly Row[]): GoalResult[] {
	const goals: GoalResult[] = [];
	const inMemory = rows.filter((row) => row.section === "Compaction preparation, path in memory");
	for (const row of inMemory) {
		if (row.pi?.status === "ok") {
			const r = ratio(row.pi, row.ours);
			goals.push({
				goal: `Compaction preparation on ${row.label} (path in memory): at least as fast as pi`,
				met: r === undefined ? undefined : r >= 1,
				detail: `pi/ours ${formatRatio(r)} (CPU ${formatRatio(cpuRatio(row.pi, row.ours))}); ours ${formatMs(row.ours?.medianMs ?? Number.NaN)}, pi ${formatMs(row.pi.medianMs)}; peak RSS growth ours ${formatBytes(rssGrowth(row.ours))}, pi ${formatBytes(rssGrowth(row.pi))}`,
			});
		} else if (row.pi) {
			goals.push({
				goal: `Compaction preparation on ${row.label}: ours runs; pi cannot`,
				met: row.ours?.status === "ok",
				detail: `ours: ${row.ours?.status} (${formatMs(row.ours?.medianMs ?? Number.NaN)}); pi: ${row.pi.status}${row.pi.reason ? ` (${row.pi.reason})` : ""}`,
			});
		}
	}
	const streamed = rows.filter((row) => row.section.startsWith("Compaction preparation, streamed"));
	const first = streamed[0];
	const last = streamed[streamed.length - 1];
	if (first && last && first !== last) {
		const a = rssGrowth(first.ours);
		const b = rssGrowth(last.ours);
		goals.push({
			goal: `Compaction preparation streamed from the log: memory does not follow the session's size (${last.label} within 2x of ${first.label} + 16 MiB)`,
			met: a === undefined || b === undefined ? undefined : b <= 2 * a + (16 << 20),
			detail: streamed
				.map(
					(row) => `${row.label}: ${formatBytes(rssGrowth(row.ours))} in ${formatMs(row.ours?.medianMs ?? Number.NaN)}`,
				)
				.join("; "),
		});
	}
	for (const row of rows.filter((row) => row.section.startsWith("compact --dry-run"))) {
		const growth = rssGrowth(row.ours);
		const ms = row.ours?.medianMs;
		goals.push({
			goal: `compact --dry-run on ${row.label}: the plan in under 1 s and under 64 MiB of extra memory`,
			met: growth === undefined || ms === undefined ? undefined : ms < 1000 && growth < 64 << 20,
			detail: `${formatMs(ms ?? Number.NaN)}, peak RSS growth ${formatBytes(growth)}`,
		});
	}
	for (const row of rows.filter((row) => row.section.startsWith("Compaction end to end"))) {
		const growth = rssGrowth(row.ours);
		goals.push({
			goal: `Compaction end to end on ${row.label}: memory bounded by a few chunks (under ${formatBytes(COMPACTION_MEMORY_BOUND)}), never by the session`,
			met: growth === undefined ? undefined : growth < COMPACTION_MEMORY_BOUND,
			detail: `${formatMs(row.ours?.medianMs ?? Number.NaN)}, ${row.ours?.facts?.chunks ?? "?"} summarizer calls, peak RSS growth ${formatBytes(growth)}`,
		});
	}
	goals.push(...cliGoals(rows), ...importGoals(rows));
	for (const row of section(rows, "Search message text")) {
		const ms = row.ours?.medianMs ?? Number.NaN;
		goals.push({
			goal: `Search ${row.label}: under 0.5 s`,
			met: row.ours?.status === "ok" ? ms < 500 : undefined,
			detail: `${formatMs(ms)} (CPU ${formatMs(row.ours?.medianCpuMs ?? Number.NaN)}); ${row.ours?.facts?.hits ?? "?"} hits`,
		});
	}
	return goals;
}

/** The CLI's start-to-exit goals: at most this many times a bare Node start measured in the same run. */
const CLI_GOALS: ReadonlyArray<[prefix: string, bound: number]> = [
	["--version", 1.6],
	["list --json", 2.5],
	["context ", 4],
	["show ", 2.5],
	["tail ", 2.5],
	["stats", 2.5],
];

function cliGoals(rows: readonly Row[]): GoalResult[] {
	const goals: GoalResult[] = [];
	for (const row of section(rows, "CLI, whole process")) {
		const bound = CLI_GOALS.find(([prefix]) => row.label.startsWith(prefix))?.[1];
		if (bound === undefined) continue;
		const r = ratio(row.ours, row.floor);
		const piFigure = row.pi?.status === "ok" ? `; pi in-process ${formatMs(row.pi.medianMs)}` : "";
		goals.push({
			goal: `agent-sessions ${row.label}: at most ${bound}x a bare node start`,
			met: r === undefined ? undefined : r <= bound,
			detail: `${formatRatio(r)} (CPU ${formatRatio(cpuRatio(row.ours, row.floor))}; ${formatMs(row.ours?.medianMs ?? Number.NaN)} vs ${formatMs(row.floor?.medianMs ?? Number.NaN)})${piFigure}`,
		});
	}
	return goals;
}

/** A cold import of the runtime: at most this many times a bare Node start, in CPU. */
export const IMPORT_CPU_BOUND = 2.5;

function importGoals(rows: readonly Row[]): GoalResult[] {
	const row = section(rows, IMPORT_SECTION).find((candidate) => candidate.label === 'import("@agent/session")');
	if (!row) return [];
	// Means, not medians: CPU time is counted in 10 ms ticks, and a bare start takes a few of them.
	const r = meanCpu(row.ours) / meanCpu(row.floor);
	return [
		{
			goal: `${row.label}, cold: at most ${IMPORT_CPU_BOUND}x the CPU of a bare node start`,
			met: Number.isFinite(r) ? r <= IMPORT_CPU_BOUND : undefined,
			detail: `${formatRatio(r)} (${formatMs(meanCpu(row.ours))} vs ${formatMs(meanCpu(row.floor))} of CPU, mean of ${row.ours?.cpuMs?.length ?? 0} runs)`,
		},
	];
}

function meanCpu(m: Row["ours"]): number {
	const cpu = m?.status === "ok" ? (m.cpuMs ?? []) : [];
	return cpu.length === 0 ? Number.NaN : cpu.reduce((sum, ms) => sum + ms, 0) / cpu.length;
}

function perSecond(row: Row, who: "ours" | "pi" | "floor"): string {
	const m = row[who];
	const records = row.records ?? Number.NaN;
	if (m?.status !== "ok") return m?.status ?? "—";
	return `${Math.round((records / m.medianMs) * 1000).toLocaleString("en-US")} records/s`;
}

export function renderGoals(goals: readonly GoalResult[]): string {
	return goals
		.map((g) => `- ${g.met === undefined ? "[figure]" : g.met ? "[met]" : "[NOT met]"} ${g.goal}: ${g.detail}`)
		.join("\n");
}
