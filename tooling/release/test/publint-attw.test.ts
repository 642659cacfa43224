// publint (package.json and files as published) and Are the Types Wrong (types resolution for
// every module resolution mode) on each tarball that `pnpm pack` made.
import { describe, expect, inject, it } from "vitest";
import { output, run } from "../src/exec.js";
import { toolBin } from "../src/workspace.js";

const PUBLINT = toolBin("publint", "publint");
const ATTW = toolBin("@arethetypeswrong/cli", "attw");

describe.each(inject("packed").map((pkg) => [pkg.name, pkg] as const))("%s", (_name, pkg) => {
	it("passes publint --strict", async () => {
		const result = await run(process.execPath, [PUBLINT, "run", pkg.tarball, "--strict"]);
		expect(result.code, output(result)).toBe(0);
		expect(result.stdout).toContain("All good!");
	});

	// ESM only by design (docs' Conventions): `--profile esm-only` skips the CommonJS require() modes.
	it("passes attw --profile esm-only", async () => {
		const result = await run(process.execPath, [ATTW, pkg.tarball, "--profile", "esm-only", "--format", "ascii"], {
			env: { ...process.env, FORCE_COLOR: "0", NO_COLOR: "1" },
		});
		expect(result.code, output(result)).toBe(0);
	});
});
