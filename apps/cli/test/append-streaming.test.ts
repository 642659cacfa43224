import { setTimeout as sleep } from "node:timers/promises";
import { createFileStore } from "@agent/session-fs";
import { describe, expect, it } from "vitest";
import { assistantBody, cliAt, jsonl, startCli, tempHome, userBody } from "./cli-harness.js";

describe("append", () => {
	it("prints each seq as soon as its record is durable, while stdin is still open", async () => {
		const cli = cliAt(await tempHome());
		const id = await cli.create();
		const append = startCli(["--home", cli.home, "append", id]);
		append.child.stdin.write(jsonl(userBody("first")));
		await append.waitFor("1\n");
		// The record is in the log before the input ends: another process reads it.
		expect(await cli.json<Array<{ seq: number }>>(["show", id])).toHaveLength(1);
		append.child.stdin.end(jsonl(assistantBody("second")));
		const result = await append.done;
		expect(result.code).toBe(0);
		expect(result.stdout).toBe("1\n2\n");
	});

	it("fails with one line naming the holder when another writer holds the lease past --wait", async () => {
		const cli = cliAt(await tempHome());
		const id = await cli.create();
		const lease = await createFileStore({ home: cli.home }).lease(id);
		try {
			const result = await cli(["append", id, "--wait", "0.2"], { input: jsonl(userBody("blocked")) });
			expect(result.code).toBe(1);
			const lines = result.stderr.trimEnd().split("\n");
			expect(lines).toHaveLength(1);
			expect(lines[0]).toContain(`process ${process.pid}`);
		} finally {
			await lease.release();
		}
		expect(await cli.json<unknown[]>(["show", id])).toEqual([]);
	});

	it("waits for another writer's lease and appends once it is released", async () => {
		const cli = cliAt(await tempHome());
		const id = await cli.create();
		const lease = await createFileStore({ home: cli.home }).lease(id);
		const append = startCli(["--home", cli.home, "append", id, "--wait", "60"]);
		append.child.stdin.end(jsonl(userBody("patient")));
		await sleep(1500); // let the append reach the lease before it is released
		expect(append.output()).toBe("");
		await lease.release();
		const result = await append.done;
		expect(result.code).toBe(0);
		expect(result.stdout).toBe("1\n");
	});
});
