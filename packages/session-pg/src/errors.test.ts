import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storageFailure } from "./errors.js";
import { findTestPostgres } from "./testing.js";

const server = await findTestPostgres();

/** What a real statement, or a real connection, fails with. */
async function failureOf(work: () => Promise<unknown>): Promise<unknown> {
	return work().then(
		() => {
			throw new Error("expected a failure");
		},
		(error: unknown) => error,
	);
}

describe.skipIf(server === undefined)("a data error is never reported as the database being away (issue 29)", () => {
	const client = new pg.Client({ connectionString: server as string });
	beforeAll(() => client.connect());
	afterAll(() => client.end());

	it("a value PostgreSQL cannot hold is INVALID_ARGUMENT, saying what to change, never 'check that PostgreSQL is reachable'", async () => {
		const cases = [
			// U+0000 in jsonb (22P05), and half an emoji (22P02): what the stores' text rules refuse before any statement.
			() => client.query("SELECT $1::jsonb", ['"a\\u0000b"']),
			() => client.query("SELECT $1::jsonb", ['"a\\ud83db"']),
			// An index entry too large (54000), as a 1,024-character CJK identity key once was in a btree.
			() =>
				client.query(
					"CREATE TEMP TABLE big_keys (k text); CREATE INDEX ON big_keys (k); INSERT INTO big_keys SELECT string_agg(md5(n::text), '') FROM generate_series(1, 400) n",
				),
		];
		for (const work of cases) {
			const error = storageFailure("writing to session S", await failureOf(work));
			expect(error.code, error.message).toBe("INVALID_ARGUMENT");
			expect(error.message).toMatch(/cannot hold a value it was given .*Change that value/);
			expect(error.message).not.toMatch(/reachable/);
			expect((error as { temporary?: boolean }).temporary).toBeUndefined();
		}
	});

	it("a database that cannot be reached is a temporary STORAGE_FAILURE that says to check it", async () => {
		const away = new pg.Client({ connectionString: "postgres://postgres@127.0.0.1:1/postgres" });
		const error = storageFailure("listing sessions", await failureOf(() => away.connect()));
		expect(error.code).toBe("STORAGE_FAILURE");
		expect(error.message).toMatch(/Check that PostgreSQL is reachable/);
		expect((error as { temporary?: boolean }).temporary).toBe(true);
	});
});
