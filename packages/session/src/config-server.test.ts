// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config.yaml's ${NAME} references are what these tests are about
import { describe, expect, it } from "vitest";
import { parseConfig } from "./config-file.js";

const ALICE = "alice-token-0123456789";
const BOB = "bob-token-0123456789ab";

describe("config.yaml: server users, secrets from the environment, proxy and limits", () => {
	it("resolves users beside the one admin token, with their admin flag and spend caps", () => {
		const config = parseConfig(
			[
				"server:",
				"  token: admin-token-0123456789",
				"  users:",
				"    - name: alice",
				`      token: ${ALICE}`,
				"      daily_spend_limit: 2.5",
				"    - name: bob",
				`      token: ${BOB}`,
				"      admin: true",
				"  limits:",
				"    requests_per_second: 5",
				"    request_burst: 10",
				"    websockets_per_client: 3",
				"    auth_failures_per_minute: 4",
				"    daily_spend_limit: 1",
				"  base_path: /agents/team",
				"  trust_proxy: true",
			].join("\n"),
		);
		expect(config.server.token).toBe("admin-token-0123456789");
		expect(config.server.users).toEqual([
			{ name: "alice", token: ALICE, admin: false, dailySpendLimit: 2.5 },
			{ name: "bob", token: BOB, admin: true },
		]);
		expect(config.server.limits).toEqual({
			requestsPerSecond: 5,
			requestBurst: 10,
			websocketsPerClient: 3,
			authFailuresPerMinute: 4,
			dailySpendLimit: 1,
		});
		expect(config.server.basePath).toBe("/agents/team");
		expect(config.server.trustProxy).toBe(1);
		expect(parseConfig("server:\n  trust_proxy: 2\n").server.trustProxy).toBe(2);
		expect(parseConfig("").server).toMatchObject({ users: [], basePath: "", trustProxy: 0, limits: {} });
	});

	it("takes ${NAME} in a token or the store URL from the environment, not literally", () => {
		const env = { ALICE_TOKEN: ALICE, ADMIN_TOKEN: "admin-from-env-0123456789", PGPASSWORD: "s3cret" };
		const config = parseConfig(
			[
				"store: postgres://agent:${PGPASSWORD}@db:5432/agent",
				"server:",
				"  token: ${ADMIN_TOKEN}",
				"  users:",
				"    - name: alice",
				"      token: ${ALICE_TOKEN}",
			].join("\n"),
			"config.yaml",
			env,
		);
		expect(config.server.token).toBe(env.ADMIN_TOKEN);
		expect(config.server.users[0]?.token).toBe(ALICE);
		expect(config.store).toBe("postgres://agent:s3cret@db:5432/agent");
		// Elsewhere ${...} is text: a job's prompt keeps it.
		const jobs = parseConfig(
			'jobs:\n  - id: j\n    schedule: "0 9 * * *"\n    prompt: "say ${HOME}"\n',
			"config.yaml",
			{ HOME: "/root" },
		);
		expect(jobs.jobs[0]?.prompt).toBe("say ${HOME}");
	});

	it("an unset or empty variable is an error naming the key and the variable", () => {
		const yaml = "server:\n  users:\n    - name: alice\n      token: ${ALICE_TOKEN}\n";
		expect(() => parseConfig(yaml, "/etc/agent/config.yaml", {})).toThrow(
			/\/etc\/agent\/config.yaml: server.users.0.token refers to the environment variable ALICE_TOKEN, which is not set; set it/,
		);
		expect(() => parseConfig("server:\n  token: ${T}\n", "config.yaml", { T: "" })).toThrow(/T, which is empty/);
	});

	it("refuses short or spaced tokens (after expansion), taken names and tokens, and bad names or base paths", () => {
		expect(() => parseConfig("server:\n  token: ${T}\n", "config.yaml", { T: "short" })).toThrow(
			/server.token: a token needs at least 16 characters/,
		);
		expect(() => parseConfig(`server:\n  users:\n    - name: a\n      token: "${ALICE} x"\n`)).toThrow(
			/server.users.0.token: a token cannot hold spaces/,
		);
		expect(() =>
			parseConfig(`server:\n  users:\n    - { name: a, token: ${ALICE} }\n    - { name: a, token: ${BOB} }\n`),
		).toThrow(/server.users.1.name: the name "a" is taken twice/);
		expect(() =>
			parseConfig(`server:\n  users:\n    - { name: a, token: ${ALICE} }\n    - { name: b, token: ${ALICE} }\n`),
		).toThrow(/server.users.1.token: two users have the same token/);
		expect(() => parseConfig(`server:\n  users:\n    - { name: "a b", token: ${ALICE} }\n`)).toThrow(
			/server.users.0.name: a user name is 1 to 64 letters/,
		);
		expect(() => parseConfig("server:\n  base_path: /agents/\n")).toThrow(
			/server.base_path: a base path starts with \//,
		);
		expect(() => parseConfig("server:\n  limits:\n    requests_per_second: 0\n")).toThrow(
			/server.limits.requests_per_second/,
		);
	});
});
