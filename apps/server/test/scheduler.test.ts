import { afterAll, describe, expect, it } from "vitest";
import { EventClient } from "./support/event-client.js";
import { closeTestServers, startTestServer } from "./support/test-server.js";

afterAll(closeTestServers);

const JOBS = `jobs:
  - id: morning-report
    schedule: "0 9 * * 1-5"
    prompt: Summarize what happened overnight.
  - id: paused-job
    schedule: "0 0 1 1 *"
    prompt: never
    enabled: false
`;

describe("S7.7: scheduled jobs from config.yaml", () => {
	it("a job's run is a new session tagged source cron with its cronJobId, holding the prompt's turn", async () => {
		const server = await startTestServer({ configYaml: JOBS });
		const result = await server.scheduler.trigger("morning-report");
		const metadata = (await (await server.api(`/api/sessions/${result.sessionId}`)).json()) as {
			source: string;
			cronJobId: string;
		};
		expect(metadata.source).toBe("cron");
		expect(metadata.cronJobId).toBe("morning-report");
		const records = (await (await server.api(`/api/sessions/${result.sessionId}/records`)).json()) as {
			records: Array<{ role?: string; content?: Array<{ text?: string }> }>;
		};
		expect(records.records[0]?.content?.[0]?.text).toBe("Summarize what happened overnight.");
		expect(records.records.some((record) => record.role === "assistant")).toBe(true);
	});

	it("GET /api/jobs lists the jobs with their next run; disabled jobs have none", async () => {
		const server = await startTestServer({ configYaml: JOBS });
		const body = (await (await server.api("/api/jobs")).json()) as {
			jobs: Array<{ id: string; enabled: boolean; nextRun?: string }>;
		};
		const byId = new Map(body.jobs.map((job) => [job.id, job]));
		const next = byId.get("morning-report")?.nextRun ?? "";
		expect(Date.parse(next)).toBeGreaterThan(Date.now());
		const day = new Date(next).getDay();
		expect(day).toBeGreaterThanOrEqual(1);
		expect(day).toBeLessThanOrEqual(5);
		expect(byId.get("paused-job")?.enabled).toBe(false);
		expect(byId.get("paused-job")?.nextRun).toBeUndefined();
	});

	it("a job runs on its own schedule (every second) and its session shows on the live feed", async () => {
		const server = await startTestServer({
			configYaml: 'jobs:\n  - id: every-second\n    schedule: "* * * * * *"\n    prompt: tick\n',
		});
		const feed = await EventClient.connect(`${server.url.replace(/^http/, "ws")}/api/events`);
		await feed.waitFor((message) => {
			const metadata = message.metadata as { source?: string; cronJobId?: string } | undefined;
			return message.type === "session.created" && metadata?.cronJobId === "every-second";
		});
		const created = feed.ofType("session.created")[0]?.metadata as { source: string };
		expect(created.source).toBe("cron");
		await feed.close();
		server.scheduler.stop();
		await server.runtime.idle();
	});

	it("an invalid cron expression stops the server from starting, naming the job", async () => {
		await expect(
			startTestServer({ configYaml: 'jobs:\n  - id: broken\n    schedule: "every tuesday"\n    prompt: x\n' }),
		).rejects.toThrow(/job broken: "every tuesday" is not a cron expression/);
	});
});
