import { errorFields, type Log } from "./log.js";

export const DEFAULT_WAIT_FOR_STORE_MS = 300_000;
const FIRST_DELAY_MS = 250;
const MAX_DELAY_MS = 5000;

/**
 * Runs `attempt` until it succeeds, while it fails for a reason that passes (a store error marked
 * `temporary`: PostgreSQL not reachable yet, restarting), with backoff (0.25 s doubling to 5 s) and
 * a log line per failure, for at most `waitMs`. Any other failure (bad credentials, a bad
 * config.yaml) is thrown at once: waiting would not fix it.
 */
export async function waitForStore<T>(
	attempt: () => Promise<T>,
	options: { waitMs: number; log: Log; sleep?: (ms: number) => Promise<void> },
): Promise<T> {
	const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
	const started = Date.now();
	let delay = FIRST_DELAY_MS;
	for (let failures = 0; ; failures++) {
		try {
			const value = await attempt();
			if (failures > 0) options.log("info", "store.reachable", { afterMs: Date.now() - started });
			return value;
		} catch (error) {
			const waited = Date.now() - started;
			if ((error as { temporary?: unknown } | null)?.temporary !== true) throw error;
			if (waited + delay > options.waitMs) {
				throw new Error(
					`agent-sessions-server: the store was not reachable within ${Math.round(options.waitMs / 1000)} s (--wait-for-store): ${(error as Error).message}`,
					{ cause: error },
				);
			}
			options.log("warn", "store.waiting", { attempt: failures + 1, retryInMs: delay, ...errorFields(error) });
			await sleep(delay);
			delay = Math.min(delay * 2, MAX_DELAY_MS);
		}
	}
}
