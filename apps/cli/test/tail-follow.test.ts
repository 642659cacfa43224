import { describe, expect, it } from "vitest";
import { assistantBody, cliAt, jsonl, startCli, tempHome, userBody } from "./cli-harness.js";

describe("tail -f", () => {
	it("prints a record that another process appends, and stops cleanly on SIGINT", async () => {
		const cli = cliAt(await tempHome());
		const id = await cli.create();
		await cli.ok(["append", id], { input: jsonl(userBody("before")) });

		const tail = startCli(["--home", cli.home, "tail", id, "-f", "-n", "1", "--json"]);
		await tail.waitFor('"seq":1');

		// Another process appends while tail is following.
		expect(await cli.ok(["append", id], { input: jsonl(assistantBody("appended elsewhere")) })).toBe("2\n");
		expect(await tail.waitFor('"seq":2')).toContain("appended elsewhere");

		tail.child.kill("SIGINT");
		const result = await tail.done;
		expect(result.code).toBe(0);
		const records = result.stdout
			.trimEnd()
			.split("\n")
			.map((line) => JSON.parse(line) as { seq: number });
		expect(records.map((record) => record.seq)).toEqual([1, 2]);
	});
});
