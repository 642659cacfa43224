import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { pruneStaleData } from "./generate/datasets.js";
import { evaluateGoals, renderGoals } from "./goals.js";
import { describeMachine } from "./machine.js";
import { planFor } from "./plan.js";
import { CASE_GROUPS, type CaseGroup, prepareDatasets, runSuite } from "./suite.js";
import { renderFailures, renderTable } from "./table.js";

const REPO_ROOT = fileURLToPath(new URL("../../../", import.meta.url));

const USAGE = `usage: node dist/run.js [--quick] [--only ${CASE_GROUPS.join(",")},pg,langgraph] [--data DIR] [--json FILE] [--clean]

Runs agent-sessions' file store and pi-coding-agent's SessionManager on identical generated
conversations, each case in a child process of its own, and prints medians, ratios and floors.
  --quick   small sizes (CI); default: the full sizes of docs/benchmarks.md
  --only    run only these groups of cases (comma-separated); pg: PostgreSQL beside the file store
            (dist/pg-bench.js, in a child process; skipped without a PostgreSQL); langgraph: a
            LangGraph thread on disk against LangGraph's own savers (dist/langgraph-bench.js)
  --data    where generated sessions are cached (default <repo>/.bench-data, gitignored)
  --json    also write the results as JSON to FILE
  --clean   delete the data directory and exit`;

async function main(): Promise<number> {
	const { values } = parseArgs({
		options: {
			quick: { type: "boolean", default: process.env.BENCH_QUICK === "1" },
			only: { type: "string" },
			data: { type: "string", default: process.env.BENCH_DATA ?? join(REPO_ROOT, ".bench-data") },
			json: { type: "string" },
			clean: { type: "boolean", default: false },
			help: { type: "boolean", default: false },
		},
		allowPositionals: false,
	});
	if (values.help) {
		console.log(USAGE);
		return 0;
	}
	const dataRoot = values.data as string;
	if (values.clean) {
		rmSync(dataRoot, { recursive: true, force: true });
		console.log(`removed ${dataRoot}`);
		return 0;
	}
	const only = values.only?.split(",").map((group) => group.trim()) ?? [];
	const separate = ["pg", "langgraph"];
	const unknown = only.filter(
		(group) => !separate.includes(group) && !(CASE_GROUPS as readonly string[]).includes(group),
	);
	if (unknown.length > 0) {
		console.error(`unknown group(s) ${unknown.join(", ")}\n${USAGE}`);
		return 2;
	}
	const want = (group: CaseGroup) => only.length === 0 || only.includes(group);
	const runSeparate = (script: string) =>
		spawnSync(
			process.execPath,
			["--expose-gc", fileURLToPath(new URL(script, import.meta.url)), ...(values.quick ? ["--quick"] : [])],
			{ stdio: "inherit" },
		).status ?? 1;
	const runPg = () => runSeparate("pg-bench.js");
	const runLanggraph = () => runSeparate("langgraph-bench.js");
	if (only.length > 0 && only.every((group) => separate.includes(group))) {
		const pg = only.includes("pg") ? runPg() : 0;
		const langgraph = only.includes("langgraph") ? runLanggraph() : 0;
		return pg !== 0 || langgraph !== 0 ? 1 : 0;
	}
	const plan = planFor(values.quick ? "quick" : "full");
	const log = (line: string) => console.error(line);

	mkdirSync(dataRoot, { recursive: true });
	for (const name of pruneStaleData(dataRoot)) log(`removed stale data ${name}`);
	const started = Date.now();
	log(`bench (${plan.mode}): preparing data in ${dataRoot}`);
	const data = await prepareDatasets(plan, dataRoot, log, want);
	const scratch = join(dataRoot, `scratch-${process.pid}`);
	log(`bench (${plan.mode}): running cases, one child process each`);
	let rows: Awaited<ReturnType<typeof runSuite>>;
	try {
		rows = await runSuite(plan, data, scratch, log, want);
	} finally {
		rmSync(scratch, { recursive: true, force: true });
	}
	const goals = evaluateGoals(rows);
	const machine = describeMachine(dataRoot);
	const elapsed = (Date.now() - started) / 1000;

	console.log(`\n## agent-sessions vs pi-coding-agent 0.73.1 (${plan.mode} run, ${elapsed.toFixed(0)} s)\n`);
	console.log(`Machine: ${machine.summary}\n`);
	console.log(renderTable(rows));
	const failures = renderFailures(rows);
	if (failures.length > 0) console.log(`\n${failures.map((line) => `- ${line}`).join("\n")}`);
	console.log(`\n### Goals\n\n${renderGoals(goals)}`);
	if (values.json) {
		const result = { plan, machine, elapsedSeconds: elapsed, rows, goals, datasets: data };
		writeFileSync(values.json, `${JSON.stringify(result, null, "\t")}\n`);
	}
	const pgStatus = only.length === 0 || only.includes("pg") ? runPg() : 0;
	const langgraphStatus = only.length === 0 || only.includes("langgraph") ? runLanggraph() : 0;
	return pgStatus !== 0 ||
		langgraphStatus !== 0 ||
		rows.some((row) => [row.ours, row.pi, row.floor].some((m) => m?.status === "error"))
		? 1
		: 0;
}

process.exitCode = await main();
