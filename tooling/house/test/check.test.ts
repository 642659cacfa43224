import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { linesOf, scratchPackage } from "./scratch.js";

const CHECK = fileURLToPath(new URL("../check.mjs", import.meta.url));

function check(dir: string) {
	const run = spawnSync(process.execPath, [CHECK, dir], { encoding: "utf8" });
	return { status: run.status, stderr: run.stderr };
}

describe("check.mjs (what each package's lint runs)", () => {
	it("fails a package with a cycle and a long file, naming both", () => {
		const dir = scratchPackage({
			"src/a.ts": 'import "./b.js";\n',
			"src/b.ts": 'import "./a.js";\n',
			"src/long.ts": linesOf(420),
		});
		const { status, stderr } = check(dir);
		expect(status).toBe(1);
		expect(stderr).toMatch(/house: import cycle in .*: src\/a\.ts -> src\/b\.ts -> src\/a\.ts/);
		expect(stderr).toMatch(/house: .*src\/long\.ts has 420 lines \(at most 400\)/);
	});

	it("passes a package with neither, silently", () => {
		const dir = scratchPackage({ "src/a.ts": 'import "./b.js";\n', "src/b.ts": "export {};\n" });
		expect(check(dir)).toEqual({ status: 0, stderr: "" });
	});
});
