import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempStore } from "./test-home.js";

const DIST = new URL("../dist/index.js", import.meta.url).href;

/** Appends until the file-size limit stops it, then lets the event loop turn (where a pending SIGXFSZ would be handled). */
const CHILD = `
import { createFileStore } from ${JSON.stringify(DIST)};
const [home, id] = process.argv.slice(1);
const store = createFileStore({ home });
const record = { recordType: "message", role: "user", content: [{ type: "text", text: "y".repeat(1500) }] };
let acked = 0;
for (;;) {
	try {
		await store.append(id, [record]);
		acked++;
	} catch (error) {
		console.log(error.code, error.message);
		break;
	}
}
await new Promise((resolve) => setTimeout(resolve, 200));
console.log("alive", acked);
`;

/** Creates a session whose metadata.json cannot be written under a one-block limit. */
const CREATE_CHILD = `
import { createFileStore } from ${JSON.stringify(DIST)};
try {
	await createFileStore({ home: process.argv[1] }).create({ name: "n".repeat(600) });
	console.log("created");
} catch (error) {
	console.log(error.code, error.message);
}
`;

function underLimit(blocks: number, script: string, ...args: string[]) {
	const node = JSON.stringify(process.execPath);
	const command = `ulimit -f ${blocks} && exec ${node} --input-type=module -e '${script}' ${args.map((_, i) => `"$${i}"`).join(" ")}`;
	return spawnSync("/bin/sh", ["-c", command, ...args], { encoding: "utf8" });
}

describe("a writer under a file-size limit", () => {
	it("an append past `ulimit -f` fails with a clear EFBIG storage failure, and the process lives on (SIGXFSZ stays harmless)", async () => {
		const { store, home, cleanup } = tempStore();
		try {
			const { id } = await store.create();
			const node = JSON.stringify(process.execPath);
			const child = spawnSync(
				"/bin/sh",
				["-c", `ulimit -f 40 && exec ${node} --input-type=module -e '${CHILD}' "$0" "$1"`, home, id],
				{
					encoding: "utf8",
				},
			);
			expect(child.signal).toBeNull();
			expect(child.stdout).toMatch(/^STORAGE_FAILURE .*EFBIG.*Free disk space/m);
			const acked = Number(/^alive (\d+)$/m.exec(child.stdout)?.[1]);
			expect(acked).toBeGreaterThan(0);
			expect((await store.metadata(id)).lastSeq).toBe(acked);
			expect(readFileSync(store.pathsOf(id).log).length).toBeLessThanOrEqual(40 * 512);
		} finally {
			await cleanup();
		}
	});

	it("a create whose files do not fit fails with a storage failure that names the cause, and leaves no session directory", async () => {
		const { home, cleanup } = tempStore();
		try {
			const child = underLimit(1, CREATE_CHILD, home);
			expect(child.signal).toBeNull();
			expect(child.stdout).toMatch(/^STORAGE_FAILURE .*could not create session.*EFBIG.*Free disk space/m);
			expect(readdirSync(join(home, "sessions"))).toEqual([]);
		} finally {
			await cleanup();
		}
	});
});
