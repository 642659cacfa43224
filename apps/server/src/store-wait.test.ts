import { AgentSessionError } from "@agent/session-format";
import { describe, expect, it } from "vitest";
import { waitForStore } from "./store-wait.js";

function temporary(message: string): AgentSessionError {
	const error = new AgentSessionError("STORAGE_FAILURE", message);
	(error as { temporary?: boolean }).temporary = true;
	return error;
}

describe("waiting for the store at start", () => {
	it("retries a temporary failure with doubling delays and a log line per try, then returns what the store gave", async () => {
		const logged: Array<[string, string, Record<string, unknown> | undefined]> = [];
		const slept: number[] = [];
		let tries = 0;
		const value = await waitForStore(
			async () => {
				if (++tries < 4) throw temporary("connect ECONNREFUSED");
				return "opened";
			},
			{
				waitMs: 60_000,
				log: (level, event, fields) => logged.push([level, event, fields]),
				sleep: async (ms) => void slept.push(ms),
			},
		);
		expect(value).toBe("opened");
		expect(slept).toEqual([250, 500, 1000]);
		expect(logged.map(([level, event]) => `${level} ${event}`)).toEqual([
			"warn store.waiting",
			"warn store.waiting",
			"warn store.waiting",
			"info store.reachable",
		]);
		expect(logged[0]?.[2]).toMatchObject({ attempt: 1, retryInMs: 250, errorCode: "STORAGE_FAILURE" });
	});

	it("a failure waiting cannot fix (bad credentials, a bad config) is thrown at once", async () => {
		let tries = 0;
		const permanent = new AgentSessionError("STORAGE_FAILURE", 'role "nouser" does not exist');
		await expect(
			waitForStore(
				async () => {
					tries++;
					throw permanent;
				},
				{ waitMs: 60_000, log: () => {}, sleep: async () => {} },
			),
		).rejects.toBe(permanent);
		expect(tries).toBe(1);
	});

	it("gives up past the wait, naming the flag and the last error", async () => {
		await expect(
			waitForStore(
				async () => {
					throw temporary("connect ECONNREFUSED 127.0.0.1:5432");
				},
				{ waitMs: 0, log: () => {}, sleep: async () => {} },
			),
		).rejects.toThrow(/not reachable within 0 s \(--wait-for-store\): connect ECONNREFUSED/);
	});
});
