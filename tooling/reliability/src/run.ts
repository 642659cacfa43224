import { writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { allCases } from "./cases/all.js";
import { profileNamed } from "./profile.js";
import { type CaseResult, runCase } from "./support/case.js";
import { Random } from "./support/random.js";

/**
 * The reliability suite: `node dist/run.js [case ...]`.
 *   RELIABILITY_PROFILE=full|ci (default full)   RELIABILITY_SEED=<n> replays a run
 *   RELIABILITY_REPORT=<file.json> writes the figures   RELIABILITY_KEEP=1 keeps the sandboxes
 * Exits non-zero when any check of any case failed.
 */
async function main(): Promise<number> {
	const profile = profileNamed(process.env.RELIABILITY_PROFILE);
	const seed = Number(process.env.RELIABILITY_SEED ?? Date.now() % 0x7fffffff);
	const wanted = process.argv.slice(2);
	const unknown = wanted.filter((name) => !allCases.some((entry) => entry.name === name));
	if (unknown.length > 0) {
		console.error(`unknown case(s) ${unknown.join(", ")}; the cases are ${allCases.map((c) => c.name).join(", ")}`);
		return 2;
	}
	const cases = wanted.length > 0 ? allCases.filter((entry) => wanted.includes(entry.name)) : allCases;
	const machine = `${cpus().length} x ${cpus()[0]?.model ?? "cpu"}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${process.platform}`;
	console.log(`reliability: profile ${profile.name}, seed ${seed}, ${machine}`);
	const random = new Random(seed);
	const results: CaseResult[] = [];
	for (const entry of cases) {
		console.log(`- ${entry.name} ...`);
		const result = await runCase(entry, profile, new Random(random.fork()));
		results.push(result);
		printResult(result);
	}
	if (process.env.RELIABILITY_REPORT) {
		writeFileSync(
			process.env.RELIABILITY_REPORT,
			`${JSON.stringify({ profile: profile.name, seed, machine, results }, null, "\t")}\n`,
		);
	}
	const failed = results.filter((result) => result.failures.length > 0).length;
	console.log(
		`${results.length - failed} passed, ${failed} failed (seed ${seed}; replay with RELIABILITY_SEED=${seed})`,
	);
	return failed === 0 ? 0 : 1;
}

function printResult(result: CaseResult): void {
	const status = result.failures.length === 0 ? "PASS" : "FAIL";
	console.log(`${status} ${result.name} (${result.checks} checks, ${(result.ms / 1000).toFixed(1)} s)`);
	for (const [name, value] of result.figures) console.log(`    ${name}: ${value}`);
	for (const failure of result.failures) console.log(`    ✗ ${failure}`);
}

main().then(
	(code) => {
		process.exitCode = code;
	},
	(error) => {
		console.error(error);
		process.exitCode = 1;
	},
);
