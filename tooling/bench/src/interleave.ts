import type { CaseName, CaseParams } from "./cases/index.js";
import { type Measurement, median } from "./measure.js";
import { spawnCase } from "./spawn-case.js";

/** One side of a comparison: a case and its parameters (`runs` is the total wanted). */
export type Contender = { [N in CaseName]: { name: N; params: CaseParams<N> } }[CaseName];

/**
 * Measures the contenders of one comparison (ours, pi, a floor) taking turns: `rounds` child
 * processes each, in the order ours, pi, floor, ours, pi, floor, ..., each doing its share of the
 * timed runs after one warm-up run. A change in the machine's load during the comparison (it is shared) then falls on all of
 * them alike instead of on whichever ran at the wrong moment. A contender that cannot run, or
 * times out, is not tried again. Memory figures are those of each contender's first process.
 */
export async function interleaved(
	contenders: ReadonlyArray<Contender | undefined>,
	timeoutMs: number,
	rounds = 2,
): Promise<Array<Measurement | undefined>> {
	const parts: Measurement[][] = contenders.map(() => []);
	for (let round = 0; round < rounds; round++) {
		for (let i = 0; i < contenders.length; i++) {
			const contender = contenders[i];
			const done = parts[i] as Measurement[];
			if (!contender || done.some((part) => part.status !== "ok")) continue;
			// Each process's first run is a warm-up (see measureRuns), hence the + 1.
			const share = Math.ceil(contender.params.runs / rounds);
			if (round * share >= contender.params.runs) continue;
			const params = { ...contender.params, runs: contender.params.runs > 1 ? share + 1 : 1 };
			done.push(await spawnCase(contender.name, params as never, timeoutMs));
		}
	}
	return parts.map((done, i) => (contenders[i] ? merge(done) : undefined));
}

function merge(parts: readonly Measurement[]): Measurement {
	const failed = parts.find((part) => part.status !== "ok");
	if (failed) return failed;
	const first = parts[0] as Measurement;
	const timesMs = parts.flatMap((part) => part.timesMs);
	const cpuMs = parts.flatMap((part) => part.cpuMs ?? []);
	return {
		...first,
		timesMs,
		medianMs: median(timesMs),
		cpuMs,
		medianCpuMs: median(cpuMs),
		facts: parts[parts.length - 1]?.facts,
	};
}
