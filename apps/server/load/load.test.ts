import path from "node:path";
import { performance } from "node:perf_hooks";
import { afterAll, describe, expect, it } from "vitest";
import { EventClient } from "../test/support/event-client.js";
import { closeTestServers, createSession, startTestServer } from "../test/support/test-server.js";
import { type LoadFigures, summarize, writeLoadReport } from "./load-report.js";

interface StoredRecord {
	seq: number;
	recordType: string;
	role?: string;
	content?: Array<{ text?: string }>;
}

const CLIENTS = 50;
const MESSAGES_PER_CLIENT = 20;
const SESSIONS = 10;

afterAll(closeTestServers);

const text = (record: StoredRecord | undefined) => (record?.content ?? []).map((block) => block.text ?? "").join("");

describe("load on loopback", () => {
	it(`${CLIENTS} clients × ${MESSAGES_PER_CLIENT} messages over ${SESSIONS} sessions: no error, no interleaving`, async () => {
		const server = await startTestServer();
		const sessions = await Promise.all(
			Array.from({ length: SESSIONS }, (_, index) => createSession(server, { name: `load ${index}` })),
		);
		const sockets = await Promise.all(
			sessions.map((session) =>
				EventClient.connect(`${server.url.replace(/^http/, "ws")}/api/sessions/${session.id}/events`),
			),
		);

		const latenciesMs: number[] = [];
		let errors = 0;
		let interleavings = 0;
		const cpuBefore = process.cpuUsage();
		const started = performance.now();
		await Promise.all(
			Array.from({ length: CLIENTS }, async (_, client) => {
				const session = sessions[client % SESSIONS] as { id: string };
				for (let message = 0; message < MESSAGES_PER_CLIENT; message++) {
					const content = `client ${client} message ${message}`;
					const sent = performance.now();
					const response = await fetch(`${server.url}/api/sessions/${session.id}/messages?wait=1`, {
						method: "POST",
						headers: { "Content-Type": "application/json" },
						body: JSON.stringify({ content }),
					});
					const body = (await response.json()) as { records?: StoredRecord[] };
					latenciesMs.push(performance.now() - sent);
					if (response.status !== 200) {
						errors++;
						continue;
					}
					const messages = (body.records ?? []).filter((record) => record.recordType === "message");
					const [question, answer] = messages;
					const own =
						text(question) === content &&
						answer?.role === "assistant" &&
						answer.seq === (question?.seq ?? 0) + 1 &&
						text(answer).includes(`"${content}"`);
					if (!own) interleavings++;
				}
			}),
		);
		const wallSeconds = (performance.now() - started) / 1000;
		const cpu = process.cpuUsage(cpuBefore);

		// Every session's log: question, its answer, question, its answer... and nothing lost.
		let compactions = 0;
		for (const session of sessions) {
			const page = (await (await server.api(`/api/sessions/${session.id}/records?limit=1000`)).json()) as {
				records: StoredRecord[];
			};
			const messages = page.records.filter((record) => record.recordType === "message");
			compactions += page.records.filter((record) => record.recordType === "compaction").length;
			expect(messages).toHaveLength((CLIENTS / SESSIONS) * MESSAGES_PER_CLIENT * 2);
			for (let i = 0; i < messages.length; i += 2) {
				const question = messages[i];
				const answer = messages[i + 1];
				if (
					question?.role !== "user" ||
					answer?.role !== "assistant" ||
					!text(answer).includes(`"${text(question)}"`)
				) {
					interleavings++;
				}
			}
		}
		const perSession = (CLIENTS / SESSIONS) * MESSAGES_PER_CLIENT;
		await Promise.all(
			sockets.map((socket) => socket.waitFor(() => socket.ofType("turn.completed").length >= perSession)),
		);
		const eventsPerSession = sockets.map((socket) => socket.ofType("turn.completed").length);
		await Promise.all(sockets.map((socket) => socket.close()));

		const figures: LoadFigures = {
			clients: CLIENTS,
			messagesPerClient: MESSAGES_PER_CLIENT,
			sessions: SESSIONS,
			totalMessages: CLIENTS * MESSAGES_PER_CLIENT,
			wallSeconds,
			latenciesMs,
			errors,
			interleavings,
			eventsPerSession,
			cpuSeconds: (cpu.user + cpu.system) / 1e6,
			compactions,
		};
		const { throughput, p50, p99 } = summarize(figures);
		console.log(
			`load: ${figures.totalMessages} messages in ${wallSeconds.toFixed(1)} s = ${throughput.toFixed(1)}/s; ` +
				`p50 ${p50.toFixed(0)} ms, p99 ${p99.toFixed(0)} ms; ${errors} errors, ${interleavings} interleavings`,
		);
		expect(errors).toBe(0);
		expect(interleavings).toBe(0);
		expect(latenciesMs).toHaveLength(figures.totalMessages);
		expect(eventsPerSession).toEqual(sessions.map(() => perSession));
		if (process.env.LOAD_REPORT) await writeLoadReport(path.resolve(process.env.LOAD_REPORT), figures);
	});
});
