import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MIGRATIONS, migrate } from "./migrations.js";
import { PACKAGE_VERSION } from "./schema-version.js";
import { openPgStore } from "./store.js";
import { createTestDatabase, findTestPostgres, type TestDatabase } from "./testing.js";

const server = await findTestPostgres();
const latest = Math.max(...MIGRATIONS.map((step) => step.version));

describe.skipIf(server === undefined)("schema versions", () => {
	let database: TestDatabase;
	let pool: pg.Pool;
	beforeAll(async () => {
		database = await createTestDatabase(server as string, "agent_pg_schema");
		pool = new pg.Pool({ connectionString: database.url, max: 2 });
	});
	afterAll(async () => {
		await pool?.end();
		await database?.drop();
	});

	it("records the package version that applied each step, and a second start applies nothing", async () => {
		expect(await migrate(pool)).toEqual(MIGRATIONS.map((step) => step.version));
		const { rows } = await pool.query<{ version: number; applied_by: string }>(
			"SELECT version, applied_by FROM agent_schema_migrations ORDER BY version",
		);
		expect(rows).toEqual(MIGRATIONS.map((step) => ({ version: step.version, applied_by: PACKAGE_VERSION })));
		expect(await migrate(pool)).toEqual([]);
	});

	it("a program refuses a schema with a step newer than it knows, naming the release that applied it, and changes nothing", async () => {
		await migrate(pool);
		await pool.query("INSERT INTO agent_schema_migrations (version, name, applied_by) VALUES ($1, $2, $3)", [
			latest + 1,
			"a future step",
			"99.1.0",
		]);
		await pool.query("CREATE TABLE agent_future (id integer)");
		const before = await pool.query(
			"SELECT version, name, applied_by, applied_at FROM agent_schema_migrations ORDER BY version",
		);
		try {
			const error = await openPgStore({ url: database.url }).then(
				async (store) => {
					await store.close();
					throw new Error("the store opened");
				},
				(refusal: Error & { code?: string; temporary?: boolean }) => refusal,
			);
			expect(error.code).toBe("STORAGE_FAILURE");
			expect(error.message).toContain(`step ${latest + 1} ("a future step")`);
			expect(error.message).toContain("applied by @agent/session-pg 99.1.0");
			expect(error.message).toContain(`@agent/session-pg ${PACKAGE_VERSION} knows steps up to ${latest}`);
			expect(error.message).toContain("Run a release built on @agent/session-pg 99.1.0 or later");
			// Not temporary: a server exits at once instead of waiting for the database.
			expect(error.temporary).toBeUndefined();
			const after = await pool.query(
				"SELECT version, name, applied_by, applied_at FROM agent_schema_migrations ORDER BY version",
			);
			expect(after.rows).toEqual(before.rows);
		} finally {
			await pool.query("DELETE FROM agent_schema_migrations WHERE version > $1", [latest]);
			await pool.query("DROP TABLE agent_future");
		}
		const store = await openPgStore({ url: database.url });
		await store.close();
	});

	it("a database migrated before versions were recorded gains the column, and its old rows stay as they were", async () => {
		const old = await createTestDatabase(server as string, "agent_pg_schema_old");
		const oldPool = new pg.Pool({ connectionString: old.url, max: 1 });
		try {
			await oldPool.query(
				"CREATE TABLE agent_schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())",
			);
			const first = MIGRATIONS[0] as (typeof MIGRATIONS)[number];
			await oldPool.query(first.sql);
			await oldPool.query("INSERT INTO agent_schema_migrations (version, name) VALUES ($1, $2)", [
				first.version,
				first.name,
			]);
			expect(await migrate(oldPool)).toEqual(MIGRATIONS.slice(1).map((step) => step.version));
			const { rows } = await oldPool.query<{ version: number; applied_by: string | null }>(
				"SELECT version, applied_by FROM agent_schema_migrations ORDER BY version LIMIT 2",
			);
			expect(rows).toEqual([
				{ version: 1, applied_by: null },
				{ version: 2, applied_by: PACKAGE_VERSION },
			]);
		} finally {
			await oldPool.end();
			await old.drop();
		}
	});
});
