import { InvalidArgumentError } from "commander";

/** How an id argument is described in help: every command takes a prefix or --last (see session-ids.ts). */
export const SESSION_ID_HELP = "session id, a unique prefix of one, or --last for the newest session";

/** A commander parser for an integer >= `min`, e.g. `--limit 10` or a seq. */
export function integerOption(min: number): (value: string) => number {
	return (value: string) => {
		const trimmed = value.trim();
		if (!/^-?\d+$/.test(trimmed))
			throw new InvalidArgumentError(`expected a whole number, got ${JSON.stringify(value)}.`);
		const parsed = Number(trimmed);
		if (!Number.isSafeInteger(parsed) || parsed < min) {
			throw new InvalidArgumentError(`expected a whole number >= ${min}, got ${value}.`);
		}
		return parsed;
	};
}

/** A commander parser for a non-negative number of seconds (fractions allowed). */
export function secondsOption(value: string): number {
	const parsed = Number(value.trim());
	if (value.trim() === "" || !Number.isFinite(parsed) || parsed < 0) {
		throw new InvalidArgumentError(`expected a number of seconds >= 0, got ${JSON.stringify(value)}.`);
	}
	return parsed;
}

/** A commander parser for one of a fixed set of words. */
export function choiceOption<T extends string>(choices: readonly T[]): (value: string) => T {
	return (value: string) => {
		if ((choices as readonly string[]).includes(value)) return value as T;
		throw new InvalidArgumentError(`expected one of ${choices.join(", ")}, got ${JSON.stringify(value)}.`);
	};
}
