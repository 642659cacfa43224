import { formatBytes, formatMs, formatRatio, formatTime, ratio, rssGrowth } from "./format.js";
import type { Measurement } from "./measure.js";
import type { Row } from "./row.js";

const HEADER = [
	"Case",
	"Ours",
	"pi",
	"Floor",
	"pi / ours",
	"ours / floor",
	"CPU: ours",
	"pi",
	"floor",
	"Peak RSS growth: ours",
	"pi",
];

/**
 * The results as a Markdown table: wall-time medians and their ratios, CPU-time medians (steadier
 * on a busy machine), and the peak RSS the first run added to its process.
 */
export function renderTable(rows: readonly Row[]): string {
	const lines = [HEADER, HEADER.map(() => "---")];
	for (const row of rows) {
		lines.push([
			`${row.section}: ${row.label}`,
			formatTime(row.ours),
			formatTime(row.pi),
			formatTime(row.floor),
			formatRatio(ratio(row.pi, row.ours)),
			formatRatio(ratio(row.ours, row.floor)),
			cpu(row.ours),
			cpu(row.pi),
			cpu(row.floor),
			memory(row.ours),
			memory(row.pi),
		]);
	}
	return lines.map((cells) => `| ${cells.join(" | ")} |`).join("\n");
}

function cpu(m: Measurement | undefined): string {
	return m?.status === "ok" && m.medianCpuMs !== undefined ? formatMs(m.medianCpuMs) : "";
}

function memory(m: Measurement | undefined): string {
	return m?.status === "ok" ? formatBytes(rssGrowth(m)) : "";
}

/** Why a case could not run, for the notes under the table. */
export function renderFailures(rows: readonly Row[]): string[] {
	const notes: string[] = [];
	for (const row of rows) {
		for (const [who, m] of [
			["ours", row.ours],
			["pi", row.pi],
			["floor", row.floor],
		] as const) {
			if (m && m.status !== "ok") notes.push(`${row.section}: ${row.label}, ${who}: ${m.status} — ${m.reason ?? ""}`);
		}
	}
	return notes;
}
