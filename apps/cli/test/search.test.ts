import { describe, expect, it } from "vitest";
import { assistantBody, cliAt, jsonl, tempHome, userBody } from "./cli-harness.js";

interface Hit {
	sessionId: string;
	sessionName?: string;
	seq: number;
	role: string;
	snippet: string;
}

describe("search", () => {
	it("finds message text in every session (case-insensitive): session, seq, role and snippet, as text or JSON", async () => {
		const cli = cliAt(await tempHome());
		const first = await cli.create("--name", "infra");
		const second = await cli.create();
		await cli.ok(["append", first], {
			input: jsonl(userBody("the Backup job failed last night"), assistantBody("restart it")),
		});
		await cli.ok(["append", second], { input: jsonl(userBody("nothing here"), assistantBody("Backup JOB is fine")) });
		const hits = await cli.json<Hit[]>(["search", "backup job"]);
		expect(hits.map((hit) => [hit.sessionId, hit.seq, hit.role])).toEqual([
			[second, 2, "assistant"],
			[first, 1, "user"],
		]);
		expect(hits[1]?.sessionName).toBe("infra");
		expect(hits[1]?.snippet).toBe("the Backup job failed last night");
		expect(await cli.json<Hit[]>(["search", "backup", "--limit", "1"])).toHaveLength(1);

		const text = await cli.ok(["search", "backup job"]);
		expect(text).toContain(`${first} #1 user`);
		expect(text).toContain("the Backup job failed last night");

		const none = await cli(["search", "zeppelin"]);
		expect(none.code).toBe(0);
		expect(none.stdout).toBe("");
		expect(none.stderr).toContain('No message contains "zeppelin"');
		expect((await cli(["search", "  "])).code).toBe(2);
	});
});
