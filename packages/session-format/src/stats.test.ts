import { describe, expect, it } from "vitest";
import { type SessionMetadata, sessionMetadataSchema } from "./metadata.js";
import { summarizeSessions } from "./stats.js";
import { emptyMetrics } from "./token-totals.js";

function session(overrides: Partial<SessionMetadata>): SessionMetadata {
	return sessionMetadataSchema.parse({
		id: "01JMRZ8X1Q9V5E2H3K4M6N7P8R",
		createdAt: "2025-02-11T10:00:00Z",
		lastMessageAt: "2025-02-11T10:00:00Z",
		...overrides,
	});
}

describe("summarizeSessions", () => {
	it("adds up counts, log sizes, tokens and cost, in total and per model", () => {
		const a = session({
			lastSeq: 10,
			messageCount: 8,
			logBytes: 1000,
			compactionCount: 1,
			metrics: {
				...emptyMetrics(),
				input: 100,
				output: 50,
				totalTokens: 150,
				cost: 0.5,
				turns: 2,
				byModel: {
					"anthropic/claude-sonnet-4-5": {
						input: 100,
						output: 50,
						cacheRead: 0,
						cacheWrite: 0,
						totalTokens: 150,
						cost: 0.5,
						turns: 2,
					},
				},
			},
		});
		const b = session({
			lastSeq: 3,
			messageCount: 2,
			logBytes: 300,
			archivedAt: "2025-02-12T00:00:00Z",
			metrics: {
				...emptyMetrics(),
				input: 10,
				output: 5,
				totalTokens: 15,
				cost: 0.25,
				turns: 1,
				byModel: {
					"anthropic/claude-sonnet-4-5": {
						input: 4,
						output: 2,
						cacheRead: 0,
						cacheWrite: 0,
						totalTokens: 6,
						cost: 0.1,
						turns: 1,
					},
					"demo/demo": { input: 6, output: 3, cacheRead: 1, cacheWrite: 0, totalTokens: 9, cost: 0.15, turns: 0 },
				},
			},
		});
		const stats = summarizeSessions([a, b, session({})]);
		expect(stats).toMatchObject({
			sessions: 3,
			archivedSessions: 1,
			records: 13,
			messages: 10,
			compactions: 1,
			bytes: 1300,
		});
		expect(stats.totals).toEqual({
			input: 110,
			output: 55,
			cacheRead: 0,
			cacheWrite: 0,
			totalTokens: 165,
			cost: 0.75,
			turns: 3,
		});
		expect(Object.keys(stats.byModel)).toEqual(["anthropic/claude-sonnet-4-5", "demo/demo"]);
		expect(stats.byModel["anthropic/claude-sonnet-4-5"]).toMatchObject({
			sessions: 2,
			input: 104,
			totalTokens: 156,
			turns: 3,
		});
		expect(stats.byModel["demo/demo"]).toMatchObject({ sessions: 1, cacheRead: 1, cost: 0.15 });
	});

	it("adds up usage and cost per user that created the sessions; sessions without one count in the totals only", () => {
		const spent = (cost: number, turns: number) => ({
			...emptyMetrics(),
			input: 10 * turns,
			output: 5 * turns,
			totalTokens: 15 * turns,
			cost,
			turns,
		});
		const stats = summarizeSessions([
			session({ createdBy: "bob", metrics: spent(0.5, 2) }),
			session({ createdBy: "alice", metrics: spent(0.25, 1) }),
			session({ createdBy: "bob", metrics: spent(1, 4) }),
			session({ createdBy: "carol" }),
			session({ metrics: spent(2, 3) }),
		]);
		expect(Object.keys(stats.byUser)).toEqual(["alice", "bob", "carol"]);
		expect(stats.byUser.bob).toMatchObject({ sessions: 2, cost: 1.5, turns: 6, totalTokens: 90 });
		expect(stats.byUser.alice).toMatchObject({ sessions: 1, cost: 0.25, turns: 1 });
		expect(stats.byUser.carol).toMatchObject({ sessions: 1, cost: 0, turns: 0 });
		expect(stats.totals.cost).toBe(3.75);
	});

	it("gives zeros for no sessions", () => {
		const stats = summarizeSessions([]);
		expect(stats.sessions).toBe(0);
		expect(stats.totals.totalTokens).toBe(0);
		expect(stats.byModel).toEqual({});
		expect(stats.byUser).toEqual({});
	});
});
