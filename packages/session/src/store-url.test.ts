import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { SessionStore } from "@agent/session-format";
import { createFileStore } from "@agent/session-fs";
import { createTestDatabase, findTestPostgres } from "@agent/session-pg/testing";
import { afterAll, describe, expect, it } from "vitest";
import { describeStore, openStoreAt, parseStoreLocation } from "./store-url.js";

const server = await findTestPostgres();

const PACKAGE_DIR = fileURLToPath(new URL("..", import.meta.url));
const temporary: string[] = [];
afterAll(() => {
	for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
	const dir = mkdtempSync(join(tmpdir(), prefix));
	temporary.push(dir);
	return dir;
}

/**
 * @agent/session installed as a user without PostgreSQL has it: its built files, and beside it
 * every one of its dependencies but @agent/session-pg (an optional peer they never install).
 */
function installWithoutPostgres(): string {
	const root = tempDir("agent-session-no-pg-");
	const own = join(root, "node_modules", "@agent", "session");
	mkdirSync(own, { recursive: true });
	cpSync(join(PACKAGE_DIR, "package.json"), join(own, "package.json"));
	cpSync(join(PACKAGE_DIR, "dist"), join(own, "dist"), { recursive: true });
	const installed = join(PACKAGE_DIR, "node_modules");
	for (const name of readdirSync(installed)) {
		if (name.startsWith(".")) continue;
		const scoped = name.startsWith("@")
			? readdirSync(join(installed, name)).map((inner) => `${name}/${inner}`)
			: [name];
		for (const dependency of scoped) {
			if (dependency === "@agent/session-pg" || dependency === "@agent/session") continue;
			mkdirSync(join(root, "node_modules", dependency, ".."), { recursive: true });
			symlinkSync(join(installed, dependency), join(root, "node_modules", dependency));
		}
	}
	return root;
}

describe("store locations: @agent/session-pg is loaded for postgres:// only", () => {
	it("without @agent/session-pg installed, a file store opens, and a postgres:// store fails naming the package to install", () => {
		const root = installWithoutPostgres();
		const home = tempDir("agent-session-home-");
		writeFileSync(
			join(root, "main.mjs"),
			`import { openStoreAt, parseStoreLocation, describeStore } from "@agent/session";
const out = {};
const files = await openStoreAt(parseStoreLocation(${JSON.stringify(home)}));
out.created = (await files.create()).id;
out.described = describeStore(files);
await files.close();
try {
	await openStoreAt(parseStoreLocation("postgres://nobody@127.0.0.1:1/none"));
} catch (error) {
	out.error = { code: error.code, message: error.message };
}
process.stdout.write(JSON.stringify(out));
`,
		);
		const child = spawnSync(process.execPath, [join(root, "main.mjs")], { cwd: root, encoding: "utf8" });
		expect(child.status, child.stderr).toBe(0);
		const out = JSON.parse(child.stdout) as {
			created: string;
			described: string;
			error?: { code: string; message: string };
		};
		expect(out.created).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
		expect(out.described).toBe(home);
		expect(out.error?.code).toBe("INVALID_ARGUMENT");
		expect(out.error?.message).toContain("needs the package @agent/session-pg");
		expect(out.error?.message).toContain("npm install @agent/session-pg");
	});

	it("a postgres:// or postgresql:// location is PostgreSQL; file:// and a path are a file store's home", () => {
		expect(parseStoreLocation("postgres://u@h/db")).toEqual({ kind: "postgres", url: "postgres://u@h/db" });
		expect(parseStoreLocation("postgresql://u@h/db").kind).toBe("postgres");
		expect(parseStoreLocation("file:///srv/agent")).toEqual({ kind: "file", home: "/srv/agent" });
		expect(() => parseStoreLocation("redis://h")).toThrow(/"redis" stores are not supported/);
	});
});

describe("describeStore asks the store (its describe), never its class", () => {
	it("a file store: its home", async () => {
		const home = tempDir("agent-session-describe-");
		const store = createFileStore({ home });
		expect(describeStore(store)).toBe(home);
		await store.close();
	});

	it.skipIf(server === undefined)("a PostgreSQL store: its URL with the password hidden", async () => {
		const database = await createTestDatabase(server as string);
		try {
			// The test server trusts local connections: the password is ignored, and must not be shown.
			const url = new URL(database.url);
			url.password = "s3cret";
			const store = await openStoreAt(parseStoreLocation(url.toString()));
			url.password = "***";
			expect(describeStore(store)).toBe(url.toString());
			expect(describeStore(store)).not.toContain("s3cret");
			await store.close();
		} finally {
			await database.drop();
		}
	});

	it("a store without describe: its home when it has one, else nothing", () => {
		const store = createFileStore({ home: tempDir("agent-session-describe-") });
		const bare: SessionStore = Object.assign(Object.create(store) as SessionStore, { describe: undefined });
		expect(describeStore(bare)).toBe(store.home);
		const nowhere: SessionStore = Object.assign(Object.create(store) as SessionStore, { describe: undefined, home: 7 });
		expect(describeStore(nowhere)).toBeUndefined();
	});
});
