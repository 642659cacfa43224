import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { BIN, cleanEnv, cliAt, tempHome } from "./cli-harness.js";

/** Runs `agent-sessions ARGS | head -c BYTES` in bash; resolves with the CLI's exit status and what head printed. */
function throughHead(home: string, args: string[], bytes: number): Promise<{ status: number; shown: string }> {
	const quote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;
	const command = `${[process.execPath, BIN, "--home", home, ...args].map(quote).join(" ")} | head -c ${bytes}; echo; echo "status=\${PIPESTATUS[0]}"`;
	return new Promise((resolve, reject) => {
		const bash = spawn("bash", ["-c", command], { env: cleanEnv() });
		let out = "";
		bash.stdout.setEncoding("utf8").on("data", (chunk: string) => {
			out += chunk;
		});
		bash.on("error", reject);
		bash.on("close", () => {
			const status = Number(/status=(\d+)/.exec(out)?.[1] ?? Number.NaN);
			resolve({ status, shown: out.replace(/\n?status=\d+\n?$/, "") });
		});
	});
}

describe("a closed pipe on stdout", () => {
	it("ends the output of send, not the turn: the reply is stored and the exit code is 0", async () => {
		const cli = cliAt(await tempHome());
		const id = await cli.create("--model", "demo");
		const { status, shown } = await throughHead(
			cli.home,
			["send", id, "Tell me everything about pipes. ".repeat(20)],
			12,
		);
		expect(status).toBe(0);
		expect(shown.trim().length).toBeLessThanOrEqual(12);
		const records = await cli.json<Array<{ recordType: string; role?: string }>>(["show", id]);
		const messages = records.filter((record) => record.recordType === "message");
		expect(messages.map((record) => record.role)).toEqual(["user", "assistant"]);
	});

	it("stops show quietly with exit 0", async () => {
		const cli = cliAt(await tempHome());
		const id = await cli.create("--model", "demo");
		await cli.ok(["send", id, "hello"]);
		const { status, shown } = await throughHead(cli.home, ["show", id], 5);
		expect(status).toBe(0);
		expect(shown.trim()).toBe("id:");
	});
});
