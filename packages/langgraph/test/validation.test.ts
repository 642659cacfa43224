// LangGraph's own checkpointer conformance suite (@langchain/langgraph-checkpoint-validation) against
// StoreCheckpointer on both stores. It runs in a child vitest (its specs need vitest globals) whose
// hundreds of test names stay out of this log; they are printed only when something fails.
// (The package's `validate-checkpointer` CLI cannot load an initializer in 1.1.1: its runner
// imports a helper its build does not export; the library form is the same suite.)
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { findTestPostgres } from "@agent/session-pg/testing";
import { describe, expect, it } from "vitest";

const packageDir = fileURLToPath(new URL("..", import.meta.url));
const vitestBin = join(createRequire(import.meta.url).resolve("vitest/package.json"), "..", "vitest.mjs");
const server = await findTestPostgres();

interface Report {
	success: boolean;
	numPassedTests: number;
	numFailedTests: number;
	numPendingTests: number;
}

function runSuite(spec: string, env: NodeJS.ProcessEnv = {}): Promise<{ report: Report | undefined; output: string }> {
	const dir = mkdtempSync(join(tmpdir(), "langgraph-validation-"));
	const reportFile = join(dir, "report.json");
	const args = [vitestBin, "run", "--config", "test/validation/vitest.config.ts", spec];
	args.push("--reporter=dot", "--reporter=json", `--outputFile.json=${reportFile}`);
	return new Promise((resolve) => {
		execFile(
			process.execPath,
			args,
			{ cwd: packageDir, env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024 },
			(_error, stdout, stderr) => {
				let report: Report | undefined;
				try {
					report = JSON.parse(readFileSync(reportFile, "utf8")) as Report;
				} catch {
					report = undefined;
				}
				rmSync(dir, { recursive: true, force: true });
				resolve({ report, output: `${stdout}\n${stderr}` });
			},
		);
	});
}

async function expectSuitePasses(spec: string, env?: NodeJS.ProcessEnv): Promise<void> {
	const { report, output } = await runSuite(spec, env);
	const passed = report?.success === true && report.numFailedTests === 0 && report.numPassedTests >= 700;
	if (!passed) console.error(output);
	expect(report?.numFailedTests, "failed tests of the suite (its output is printed above)").toBe(0);
	expect(report?.numPendingTests).toBe(0);
	// 726 in 1.1.1: put, putWrites, getTuple, list (every argument combination), deleteThread, and
	// the opt-in getDeltaChannelHistory specs. Fewer means the suite did not run whole.
	expect(report?.numPassedTests).toBeGreaterThanOrEqual(700);
	expect(report?.success).toBe(true);
}

describe("LangGraph's checkpointer validation suite", () => {
	it("passes on the file store", async () => {
		await expectSuitePasses("test/validation/file-store.spec.ts");
	}, 300_000);

	it.skipIf(server === undefined)(
		"passes on PostgreSQL",
		async () => {
			await expectSuitePasses("test/validation/postgres.spec.ts", { AGENT_TEST_PG_URL: server as string });
		},
		300_000,
	);
});
