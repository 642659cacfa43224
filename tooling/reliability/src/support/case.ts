import type { Profile } from "../profile.js";
import type { Random } from "./random.js";

/** What a case gets: the profile, a seeded PRNG, and where it records checks and figures. */
export interface CaseContext {
	readonly profile: Profile;
	readonly random: Random;
	/** Records a failed check (the case goes on, so one run shows every finding). */
	check(condition: boolean, message: string): void;
	/** A number (or fact) for docs/reliability.md. */
	figure(name: string, value: number | string): void;
	log(message: string): void;
}

export interface ReliabilityCase {
	name: string;
	run(context: CaseContext): Promise<void>;
}

export interface CaseResult {
	name: string;
	failures: string[];
	figures: [string, number | string][];
	checks: number;
	ms: number;
}

export async function runCase(entry: ReliabilityCase, profile: Profile, random: Random): Promise<CaseResult> {
	const result: CaseResult = { name: entry.name, failures: [], figures: [], checks: 0, ms: 0 };
	const started = Date.now();
	const context: CaseContext = {
		profile,
		random,
		check(condition, message) {
			result.checks++;
			if (!condition && result.failures.length < 50) result.failures.push(message);
		},
		figure(name, value) {
			result.figures.push([name, value]);
		},
		log(message) {
			console.log(`  ${entry.name}: ${message}`);
		},
	};
	try {
		await entry.run(context);
	} catch (error) {
		result.failures.push(`threw: ${(error as Error)?.stack ?? String(error)}`);
	}
	result.ms = Date.now() - started;
	return result;
}
