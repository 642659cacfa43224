import { CASES, type CaseName } from "./cases/index.js";
import type { Measurement } from "./measure.js";

/** Runs one case in this (fresh) process and sends its Measurement to the parent over IPC. */
async function main(): Promise<void> {
	const [name, json] = process.argv.slice(2);
	const load = CASES[name as CaseName] as (() => Promise<(params: unknown) => Promise<Measurement>>) | undefined;
	let result: Measurement;
	if (!load) {
		result = { status: "error", reason: `no case named ${name}`, timesMs: [], medianMs: Number.NaN };
	} else {
		try {
			const run = await load();
			result = await run(JSON.parse(json ?? "{}"));
		} catch (error) {
			const reason = error instanceof Error ? (error.stack ?? error.message) : String(error);
			result = { status: "error", reason, timesMs: [], medianMs: Number.NaN };
		}
	}
	if (!process.send) {
		console.log(JSON.stringify(result));
		return;
	}
	process.send(result, () => process.exit(0));
}

await main();
