import { existsSync } from "node:fs";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { startCluster } from "./testing.js";

const binaries = existsSync("/usr/lib/postgresql");

describe.skipIf(!binaries && process.env.CI !== "true")("test PostgreSQL", () => {
	it("a private throwaway cluster starts from the installed binaries (as the postgres user when root)", async () => {
		const url = startCluster()?.url;
		expect(url).toMatch(/^postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres$/);
		const client = new pg.Client({ connectionString: url });
		await client.connect();
		try {
			const { rows } = await client.query<{ one: number }>("SELECT 1 AS one");
			expect(rows[0]?.one).toBe(1);
		} finally {
			await client.end();
		}
	});
});
