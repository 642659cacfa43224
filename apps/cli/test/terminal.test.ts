import { execFileSync, spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { BIN, cleanEnv, cliAt, tempHome } from "./cli-harness.js";

/** util-linux `script` runs a command on a pseudo-terminal: stdout and stderr are TTYs there. */
function hasScript(): boolean {
	try {
		execFileSync("script", ["--version"], { stdio: "ignore" });
		return true;
	} catch {
		return false;
	}
}

function onTerminal(args: readonly string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
	const command = [process.execPath, BIN, ...args].map((part) => `'${part.replace(/'/g, "'\\''")}'`).join(" ");
	const child = spawn("script", ["-qec", command, "/dev/null"], { env, stdio: ["ignore", "pipe", "pipe"] });
	let output = "";
	child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
		output += chunk;
	});
	return new Promise((resolve, reject) => {
		child.on("error", reject);
		child.on("close", (code) => resolve({ code, output }));
	});
}

const COLOR = /\u001b\[3\dm/;

describe.runIf(hasScript())("on a terminal", () => {
	it("verify of all sessions draws a progress bar and colors its report; NO_COLOR turns the colors off", async () => {
		const cli = cliAt(await tempHome());
		await cli.create();
		await cli.create();
		const colored = await onTerminal(["--home", cli.home, "verify"], cleanEnv());
		expect(colored.code).toBe(0);
		expect(colored.output).toContain("verify [");
		expect(colored.output).toContain("2/2");
		expect(colored.output).toMatch(COLOR);

		const plain = await onTerminal(["--home", cli.home, "verify"], cleanEnv({ NO_COLOR: "1" }));
		expect(plain.code).toBe(0);
		expect(plain.output).toContain("2 session(s) verified");
		expect(plain.output).not.toMatch(COLOR);
	});
});
