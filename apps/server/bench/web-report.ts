import fs from "node:fs/promises";
import os from "node:os";

export interface SessionFigures {
	messages: number;
	/** Hash change to the last message painted in view. */
	openMs: number;
	/** After the open, until every older record was loaded in the background. */
	completeMs: number;
	/** The most DOM elements seen: opened, fully loaded, scrolled to the middle, Context tab, Tree tab, after a reply. */
	maxElements: number;
	/** Keydown to the painted frame, per keystroke in the message box, sorted. */
	keys: number[];
	/** Enter to the first painted text of the streamed demo reply. */
	replyMs: number;
}

export interface WebBenchFigures {
	generateSeconds: number;
	sessions: SessionFigures[];
	list: {
		total: number;
		reached: number;
		ms: number;
		longestFrameMs: number;
		maxElements: number;
		loadMoreButtons: number;
	};
}

const GOALS = { openMs: 1000, elements: 3000, keyMs: 50, replyMs: 500 };

/** The q-quantile (0..1) of sorted values, nearest-rank. */
function quantile(sorted: readonly number[], q: number): number {
	if (sorted.length === 0) return Number.NaN;
	return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] as number;
}

const ms = (value: number) => `${Math.round(value)} ms`;
const mark = (ok: boolean) => (ok ? "✓" : "✗");

function rows(figures: WebBenchFigures): string[] {
	const lines = [
		"| session | open at latest | all records loaded (background) | max DOM elements | keystroke p50 / p95 / max | demo reply starts painting |",
		"| --- | --- | --- | --- | --- | --- |",
	];
	for (const s of figures.sessions) {
		const p95 = quantile(s.keys, 0.95);
		lines.push(
			`| ${s.messages.toLocaleString("en")} messages | ${ms(s.openMs)} ${mark(s.openMs < GOALS.openMs)} | ${ms(s.completeMs)} | ${s.maxElements.toLocaleString("en")} ${mark(s.maxElements < GOALS.elements)} | ${ms(quantile(s.keys, 0.5))} / ${ms(p95)} / ${ms(s.keys[s.keys.length - 1] ?? Number.NaN)} ${mark(p95 < GOALS.keyMs)} | ${ms(s.replyMs)} ${mark(s.replyMs < GOALS.replyMs)} |`,
		);
	}
	return lines;
}

function listRows(figures: WebBenchFigures): string[] {
	const list = figures.list;
	return [
		"| sessions | reached by scrolling | time to the end | longest frame | max DOM elements | “Load more” buttons |",
		"| --- | --- | --- | --- | --- | --- |",
		`| ${list.total.toLocaleString("en")} | ${list.reached.toLocaleString("en")} ${mark(list.reached === list.total)} | ${ms(list.ms)} | ${ms(list.longestFrameMs)} | ${list.maxElements.toLocaleString("en")} ${mark(list.maxElements < GOALS.elements)} | ${list.loadMoreButtons} ${mark(list.loadMoreButtons === 0)} |`,
	];
}

export function printFigures(figures: WebBenchFigures): void {
	console.log([...rows(figures), "", ...listRows(figures)].join("\n"));
}

/** Writes the figures as markdown, with the machine they were measured on. */
export async function writeWebReport(file: string, figures: WebBenchFigures): Promise<void> {
	const cpus = os.cpus();
	const text = `# The web page at scale

Measured by \`pnpm bench:web\` (apps/server/bench/web-bench.test.ts), which rewrites this file.

## Setup

- One store: ${figures.list.total - figures.sessions.length} small sessions (a question and a Markdown answer each) and sessions of
  ${figures.sessions.map((s) => s.messages.toLocaleString("en")).join(", ")} messages (user prompts, Markdown replies with code blocks and
  tables, usage and cost; every tenth turn a tool call and its result; a compaction every 5,000 messages and one before
  the last turn), written through the store in ${figures.generateSeconds.toFixed(0)} s.
- The real server (file store, demo model) on loopback; Debian's Chromium, headless, 1280×800, driven by playwright-core.
- Load on the machine (1-minute load average, other work included) at the end of the run: ${os.loadavg()[0]?.toFixed(1)} on ${cpus.length} cores;
  the timings are wall-clock times in a browser sharing those cores, so they vary with it.
- Machine: ${cpus.length} cores (${cpus[0]?.model.trim() ?? "unknown CPU"}), ${Math.round(os.totalmem() / 2 ** 30)} GiB RAM, Node ${process.version}, ${os.platform()} ${os.release()}.
- Measured in the page (its own clock): *open at latest* from the hash change to the frame that shows the last message in
  view; *keystroke* from the keydown to the frame after it (${figures.sessions[0]?.keys.length ?? 0} keys typed into the message box
  with the session open); *demo reply* from the Enter keydown to the frame that shows the first streamed text;
  *max DOM elements* over the session opened, fully loaded, scrolled to its middle, the Context tab, the Tree tab and
  after the reply.

## Goals

Open at the latest message in under ${GOALS.openMs} ms (20,000 messages); fewer than ${GOALS.elements.toLocaleString("en")} DOM elements for any
session; a keystroke paints within ${GOALS.keyMs} ms (judged on the p95); a demo reply starts painting within ${GOALS.replyMs} ms
of Enter; the list of ${figures.list.total.toLocaleString("en")} sessions scrolls continuously to its end.

## Sessions

${rows(figures).join("\n")}

## Session list

${listRows(figures).join("\n")}
`;
	await fs.writeFile(file, text);
}
