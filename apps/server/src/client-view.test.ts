import { describe, expect, it } from "vitest";
import { stripBasePath } from "./base-path.js";
import { clientView } from "./client-view.js";
import { TokenBuckets } from "./rate-limit.js";
import { Users } from "./users.js";

describe("clientView: forwarded headers only from trusted proxies", () => {
	const headers = {
		host: "127.0.0.1:4317",
		"x-forwarded-for": "203.0.113.9, 10.0.0.5",
		"x-forwarded-host": "tools.example.com",
		"x-forwarded-proto": "https",
	};

	it("ignores X-Forwarded-* without trust_proxy: anyone could send them", () => {
		expect(clientView(headers, "::ffff:10.0.0.2", 0)).toEqual({
			address: "10.0.0.2",
			host: "127.0.0.1:4317",
			proto: undefined,
		});
	});

	it("takes the entry the n-th trusted proxy appended, never one the client wrote to the left of it", () => {
		expect(clientView(headers, "10.0.0.2", 1)).toEqual({
			address: "10.0.0.5",
			host: "tools.example.com",
			proto: "https",
		});
		expect(clientView(headers, "10.0.0.2", 2).address).toBe("203.0.113.9");
		// More hops trusted than entries: the leftmost, the first proxy's own view of the client.
		expect(clientView(headers, "10.0.0.2", 5).address).toBe("203.0.113.9");
		expect(clientView({ host: "h" }, "10.0.0.2", 1)).toEqual({ address: "10.0.0.2", host: "h", proto: undefined });
		expect(clientView({ "x-forwarded-proto": "gopher" }, "10.0.0.2", 1).proto).toBeUndefined();
	});
});

describe("stripBasePath", () => {
	it("serves /base/... as /..., the bare base as '' (redirected), and nothing outside it", () => {
		expect(stripBasePath("/agents/api/sessions?limit=1", "/agents")).toBe("/api/sessions?limit=1");
		expect(stripBasePath("/agents", "/agents")).toBe("");
		expect(stripBasePath("/agents?x=1", "/agents")).toBe("");
		expect(stripBasePath("/agentsx/api", "/agents")).toBeUndefined();
		expect(stripBasePath("/api/sessions", "/agents")).toBeUndefined();
		expect(stripBasePath("/api/sessions", "")).toBe("/api/sessions");
	});
});

describe("TokenBuckets", () => {
	it("grants a burst, then one per 1/rate seconds, per key; says how long to wait", () => {
		let now = 0;
		const buckets = new TokenBuckets(2, 3, () => now);
		expect([buckets.take("a"), buckets.take("a"), buckets.take("a")]).toEqual([undefined, undefined, undefined]);
		expect(buckets.take("a")).toBe(1);
		expect(buckets.take("b")).toBeUndefined();
		now = 500;
		expect(buckets.take("a")).toBeUndefined();
		expect(buckets.take("a")).toBe(1);
		now = 10_000;
		expect(buckets.peek("a")).toBeUndefined();
	});

	it("forgets keys idle long enough to be full again (memory follows active clients)", () => {
		let now = 0;
		const buckets = new TokenBuckets(1, 2, () => now);
		for (let i = 0; i < 100; i++) buckets.take(`client ${i}`);
		expect(buckets.size).toBe(100);
		now = 61_000;
		buckets.take("late");
		expect(buckets.size).toBe(1);
	});
});

describe("Users", () => {
	const alice = { name: "alice", token: "alice-token-0123456789", admin: false };
	it("authenticates each user's token, the admin token as the user admin, and nothing else", () => {
		const users = new Users("admin-token-0123456789", [
			alice,
			{ name: "ops", token: "ops-token-0123456789ab", admin: true },
		]);
		expect(users.authenticate("alice-token-0123456789")).toEqual({ name: "alice", admin: false });
		expect(users.authenticate("admin-token-0123456789")).toEqual({ name: "admin", admin: true });
		expect(users.authenticate("ops-token-0123456789ab")).toEqual({ name: "ops", admin: true });
		expect(users.authenticate("alice-token-012345678")).toBeUndefined();
		expect(users.authenticate(undefined)).toBeUndefined();
		expect(users.requireToken).toBe(true);
		expect(new Users(undefined, []).requireToken).toBe(false);
	});

	it("refuses a user named admin beside server.token, and a user with the admin's token", () => {
		expect(() => new Users("admin-token-0123456789", [{ ...alice, name: "admin" }])).toThrow(
			/server\.users\.0\.name: "admin"/,
		);
		expect(() => new Users("alice-token-0123456789", [alice])).toThrow(/server\.users\.0\.token is the admin's token/);
		expect(() => new Users(undefined, [{ ...alice, name: "admin" }])).not.toThrow();
	});
});
