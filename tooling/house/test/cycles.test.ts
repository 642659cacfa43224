import { describe, expect, it } from "vitest";
import { findCycles } from "../src/cycles.mjs";
import { scratchPackage } from "./scratch.js";

describe("findCycles", () => {
	it("finds two files that import each other through .js specifiers (NodeNext style)", async () => {
		const dir = scratchPackage({
			"src/a.ts": 'import { b } from "./b.js";\nexport const a = () => b;\n',
			"src/b.ts": 'import { a } from "./a.js";\nexport const b = () => a;\n',
		});
		expect((await findCycles(dir)).cycles).toEqual([["src/a.ts", "src/b.ts"]]);
	});

	it("counts a type-only import: it still ties the two files together", async () => {
		const dir = scratchPackage({
			"src/app.ts":
				'import { health } from "./routes/health.js";\nexport interface Deps { x: number }\nexport const app = health;\n',
			"src/routes/health.ts": 'import type { Deps } from "../app.js";\nexport const health = (deps: Deps) => deps.x;\n',
		});
		expect((await findCycles(dir)).cycles).toEqual([["src/app.ts", "src/routes/health.ts"]]);
	});

	it("counts a dynamic import: a lazily loaded module that imports its loader back is a cycle", async () => {
		const dir = scratchPackage({
			"src/registry.ts": 'export const load = () => import("./command.js");\n',
			"src/command.ts": 'import { load } from "./registry.js";\nexport const again = load;\n',
		});
		const { cycles } = await findCycles(dir);
		expect(cycles.map((cycle) => [...cycle].sort())).toEqual([["src/command.ts", "src/registry.ts"]]);
	});

	it("finds a cycle through tests and scripts too, and a longer ring in import order", async () => {
		const dir = scratchPackage({
			"test/one.test.ts": 'import "./helper.js";\n',
			"test/helper.ts": 'import "./fixture.js";\n',
			"test/fixture.ts": 'import "./one.test.js";\n',
		});
		const { cycles } = await findCycles(dir);
		expect(cycles).toHaveLength(1);
		expect([...(cycles[0] ?? [])].sort()).toEqual(["test/fixture.ts", "test/helper.ts", "test/one.test.ts"]);
	});

	it("passes a package whose arrows point one way, and does not follow imports into other packages", async () => {
		const dir = scratchPackage({
			"src/index.ts": 'export * from "./a.js";\nimport "node:fs";\nimport "some-package";\n',
			"src/a.ts": 'import { c } from "./c.js";\nexport const a = c;\n',
			"src/c.ts": "export const c = 1;\n",
			"dist/a.js": 'import "./c.js";\n',
			"dist/c.js": 'import "./a.js";\n',
		});
		expect(await findCycles(dir)).toEqual({ cycles: [], unresolved: [] });
	});

	it("reports a relative import it cannot resolve (without a tsconfig, ./b.js does not find b.ts): past it the check is blind", async () => {
		const dir = scratchPackage({
			"tsconfig.json": null,
			"src/a.ts": 'import "./b.js";\n',
			"src/b.ts": 'import "./a.js";\n',
		});
		expect(await findCycles(dir)).toEqual({
			cycles: [],
			unresolved: [
				{ file: "src/a.ts", request: "./b.js" },
				{ file: "src/b.ts", request: "./a.js" },
			],
		});
	});

	it("does not report an import of the package's build output before it is built (lint runs before build on a fresh clone)", async () => {
		const dir = scratchPackage({
			"test/child.mjs": 'import { open } from "../dist/index.js";\nimport "../dist";\nopen();\n',
			"test/other.mjs": 'import "./missing.mjs";\n',
		});
		expect(await findCycles(dir)).toEqual({
			cycles: [],
			unresolved: [{ file: "test/other.mjs", request: "./missing.mjs" }],
		});
	});
});
