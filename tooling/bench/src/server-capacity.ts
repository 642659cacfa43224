import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createTestDatabase, findTestPostgres } from "@agent/session-pg/testing";
import { type CapacityRun, type HeapGrowth, measureCapacity, measureHeapGrowth } from "./capacity.js";
import { describeMachine } from "./machine.js";

/**
 * `node dist/server-capacity.js [--quick] [--only file|pg]`: real agent-sessions-server processes
 * at infinite demo speed with 500 WebSockets open, one and two instances on each store (two on the
 * file store: two processes on one home, one machine), then the heap of one instance over
 * thousands of turns. Prints Markdown for docs/server-load.md, with the load average of the
 * machine beside each row (it is shared: the figures move with it).
 */

const USAGE = "usage: node dist/server-capacity.js [--quick] [--only file|pg] [--sockets N] [--skip-heap]";

const mib = (bytes: number) => `${Math.round(bytes / 2 ** 20)} MiB`;
const load = () => loadavg()[0]?.toFixed(1) ?? "?";

async function main(): Promise<number> {
	const { values } = parseArgs({
		options: {
			quick: { type: "boolean", default: false },
			only: { type: "string" },
			sockets: { type: "string", default: "500" },
			"skip-heap": { type: "boolean", default: false },
		},
	});
	if (values.only !== undefined && values.only !== "file" && values.only !== "pg") {
		console.error(USAGE);
		return 2;
	}
	const quick = values.quick === true;
	const sockets = Number(values.sockets);
	const runLoad = quick
		? { clients: 8, sendsPerClient: 10, sessions: 16, sockets }
		: { clients: 32, sendsPerClient: 25, sessions: 64, sockets };
	const heapLoad = quick
		? { clients: 8, sessions: 16, turnsPerStep: 200, steps: 3 }
		: { clients: 16, sessions: 64, turnsPerStep: 1000, steps: 5 };
	const pgServer = values.only === "file" ? undefined : await findTestPostgres();
	const stores: Array<{ name: string; args: () => Promise<{ args: string[]; drop(): Promise<void> }> }> = [];
	if (values.only !== "pg") stores.push({ name: "file store", args: async () => ({ args: [], drop: async () => {} }) });
	if (pgServer) {
		stores.push({
			name: "PostgreSQL",
			args: async () => {
				const database = await createTestDatabase(pgServer, "agent_capacity");
				return { args: ["--store", database.url], drop: () => database.drop() };
			},
		});
	} else if (values.only !== "file") console.error("server-capacity: no PostgreSQL found; its rows are left out");

	const home = mkdtempSync(join(tmpdir(), "agent-capacity-"));
	const rows: string[] = [];
	const heapRows: string[] = [];
	try {
		for (const store of stores) {
			for (const instances of [1, 2]) {
				const place = await store.args();
				const before = load();
				console.error(`server-capacity: ${store.name}, ${instances} instance(s), load ${before}`);
				let run: CapacityRun;
				try {
					run = await measureCapacity(mkdtempSync(join(home, "run-")), place.args, instances, runLoad);
				} finally {
					await place.drop();
				}
				rows.push(
					`| ${store.name} | ${instances} | ${run.turnsPerSecond.toFixed(0)} | ${run.p50.toFixed(0)} ms | ${run.p99.toFixed(0)} ms | ${run.rss.map((rss) => `${mib(rss.now)} (peak ${mib(rss.peak)})`).join(", ")} | ${run.socketsOpen}/${sockets} | ${(run.bytesPerSocket / 1024).toFixed(0)} KiB | ${run.events.toLocaleString("en-US")} | ${run.cpu.servers.toFixed(1)} s / ${run.cpu.clients.toFixed(1)} s | ${before} → ${load()} |`,
				);
			}
			if (values["skip-heap"]) continue;
			const place = await store.args();
			const before = load();
			console.error(`server-capacity: heap, ${store.name}, load ${before}`);
			let heap: HeapGrowth;
			try {
				heap = await measureHeapGrowth(mkdtempSync(join(home, "heap-")), place.args, heapLoad);
			} finally {
				await place.drop();
			}
			heapRows.push(
				`| ${store.name} | ${heap.heapUsed.map(mib).join(" → ")} | ${(heap.bytesPer1000Turns / 1024).toFixed(0)} KiB | ${mib(heap.rss.now)} (peak ${mib(heap.rss.peak)}) | ${before} → ${load()} |`,
			);
		}
	} finally {
		rmSync(home, { recursive: true, force: true });
	}
	const machine = describeMachine(tmpdir());
	console.log(`\n## Capacity (${quick ? "quick" : "full"} run)\n`);
	console.log(`Machine: ${machine.summary}\n`);
	console.log(
		`${runLoad.clients} clients × ${runLoad.sendsPerClient} turns (\`?wait=1\`) over ${runLoad.sessions} sessions, ${sockets} WebSockets open (one in ${5} on /api/events, the rest on a session's events), demo model at Infinity.\n`,
	);
	console.log(
		"| store | instances | turns/s | p50 | p99 | RSS per instance at the end | sockets open | RSS per socket | events received | CPU: servers / clients | load average (1 min) |",
	);
	console.log("|---|---:|---:|---:|---:|---|---:|---:|---:|---|---|");
	for (const row of rows) console.log(row);
	console.log(
		`\nHeap of one instance after a full GC: before, then after each ${heapLoad.turnsPerStep.toLocaleString("en-US")} turns (${heapLoad.clients} clients, ${heapLoad.sessions} sessions); growth is the least-squares slope after the first step.\n`,
	);
	console.log("| store | heap used | growth per 1,000 turns | RSS at the end | load average (1 min) |");
	console.log("|---|---|---:|---|---|");
	for (const row of heapRows) console.log(row);
	return 0;
}

process.exitCode = await main();
