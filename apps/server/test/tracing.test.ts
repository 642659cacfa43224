import { spawn } from "node:child_process";
import fs from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { OPS_MODEL, opsModel } from "./support/ops-model.js";
import { closeTestServers, createSession, startTestServer } from "./support/test-server.js";

interface OtlpValue {
	stringValue?: string;
	intValue?: string | number;
	doubleValue?: number;
	arrayValue?: { values: OtlpValue[] };
}
interface OtlpSpan {
	traceId: string;
	spanId: string;
	parentSpanId?: string;
	name: string;
	kind: number;
	startTimeUnixNano: string;
	endTimeUnixNano: string;
	attributes: Array<{ key: string; value: OtlpValue }>;
	status?: { code?: number; message?: string };
}

/**
 * A real OTLP/HTTP receiver, as a collector would listen: it takes POST /v1/traces with the
 * exporter's JSON body, keeps every span with its resource's service.name, and answers 200.
 */
async function otlpReceiver() {
	const spans: Array<OtlpSpan & { service?: string }> = [];
	const paths: string[] = [];
	const server = http.createServer((request, response) => {
		let body = "";
		request.on("data", (chunk) => {
			body += chunk;
		});
		request.on("end", () => {
			paths.push(`${request.method} ${request.url} ${request.headers["content-type"]}`);
			const parsed = JSON.parse(body) as {
				resourceSpans: Array<{
					resource: { attributes: Array<{ key: string; value: OtlpValue }> };
					scopeSpans: Array<{ spans: OtlpSpan[] }>;
				}>;
			};
			for (const resource of parsed.resourceSpans) {
				const service = resource.resource.attributes.find((attribute) => attribute.key === "service.name")?.value
					.stringValue;
				for (const scope of resource.scopeSpans) for (const span of scope.spans) spans.push({ ...span, service });
			}
			response.writeHead(200, { "Content-Type": "application/json" }).end("{}");
		});
	});
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		spans,
		paths,
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
}

function attribute(span: OtlpSpan, key: string): string | number | string[] | undefined {
	const value = span.attributes.find((candidate) => candidate.key === key)?.value;
	if (!value) return undefined;
	if (value.stringValue !== undefined) return value.stringValue;
	if (value.intValue !== undefined) return Number(value.intValue);
	if (value.doubleValue !== undefined) return value.doubleValue;
	return value.arrayValue?.values.map((item) => String(item.stringValue));
}

const BIN = fileURLToPath(new URL("../dist/bin.js", import.meta.url));

const model = opsModel();
afterAll(() => model.unregister());
afterEach(() => closeTestServers());

describe("OpenTelemetry spans (GenAI semantic conventions) to an OTLP endpoint", () => {
	it("a turn is an invoke_agent span holding a chat span per model call, a compaction its own span; all sent when the server stops", async () => {
		const receiver = await otlpReceiver();
		try {
			model.release();
			const server = await startTestServer({
				// The demo model writes valid summaries.
				configYaml: "compaction_model: demo\n",
				runtime: { resolveModel: model.resolveModel },
				server: {
					resolveModel: model.resolveModel,
					env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_SERVICE_NAME: "sessions-under-test" },
				},
			});
			const session = await createSession(server, { model: OPS_MODEL });
			const sent = await server.api(`/api/sessions/${session.id}/messages?wait=1`, {
				method: "POST",
				json: { content: "hello tracing" },
			});
			expect(sent.status).toBe(200);
			const { turnId } = (await sent.json()) as { turnId: string };
			expect(
				(
					await server.api(`/api/sessions/${session.id}/messages?wait=1`, {
						method: "POST",
						json: { content: "fail now" },
					})
				).status,
			).toBe(502);
			for (const question of ["more", "and more"]) {
				const more = await server.api(`/api/sessions/${session.id}/messages?wait=1`, {
					method: "POST",
					json: { content: `${question} ${"padding ".repeat(40)}` },
				});
				expect(more.status).toBe(200);
			}
			const compacted = await server.api(`/api/sessions/${session.id}/compact`, {
				method: "POST",
				json: { keepRecentTokens: 1 },
			});
			expect(compacted.status).toBe(200);
			expect(((await compacted.json()) as { compacted: boolean }).compacted).toBe(true);
			await server.close();

			expect(receiver.paths[0]).toMatch(/^POST \/v1\/traces application\/json/);
			const turns = receiver.spans.filter((span) => attribute(span, "gen_ai.operation.name") === "invoke_agent");
			const chats = receiver.spans.filter((span) => attribute(span, "gen_ai.operation.name") === "chat");
			expect(turns).toHaveLength(4);
			expect(chats).toHaveLength(4);
			const turn = turns.find((span) => attribute(span, "agent_sessions.turn.id") === turnId);
			if (!turn) throw new Error("no span for the turn");
			expect(turn.service).toBe("sessions-under-test");
			expect(turn.name).toBe("invoke_agent agent-sessions");
			expect(attribute(turn, "gen_ai.conversation.id")).toBe(session.id);
			expect(attribute(turn, "agent_sessions.turn.outcome")).toBe("completed");
			expect(attribute(turn, "gen_ai.usage.output_tokens")).toBeGreaterThan(0);

			const chat = chats.find((span) => span.parentSpanId === turn.spanId);
			if (!chat) throw new Error("no chat span inside the turn");
			expect(chat.traceId).toBe(turn.traceId);
			expect(chat.name).toBe("chat ops");
			expect(chat.kind).toBe(3); // SPAN_KIND_CLIENT
			expect(attribute(chat, "gen_ai.request.model")).toBe("ops");
			expect(attribute(chat, "gen_ai.provider.name")).toBe("faux-ops");
			expect(attribute(chat, "gen_ai.response.finish_reasons")).toEqual(["stop"]);
			expect(attribute(chat, "gen_ai.usage.input_tokens")).toBeGreaterThan(0);
			expect(BigInt(chat.startTimeUnixNano)).toBeGreaterThanOrEqual(BigInt(turn.startTimeUnixNano));
			expect(BigInt(chat.endTimeUnixNano)).toBeLessThanOrEqual(BigInt(turn.endTimeUnixNano));

			const failed = chats.find((span) => attribute(span, "error.type") !== undefined);
			expect(attribute(failed as OtlpSpan, "error.type")).toBe("MODEL_FAILED");
			expect(failed?.status?.code).toBe(2); // STATUS_CODE_ERROR
			expect(failed?.status?.message).toContain("provider down");

			const compaction = receiver.spans.find((span) => span.name === "compaction");
			expect(compaction && attribute(compaction, "agent_sessions.compaction.trigger")).toBe("manual");
			expect(compaction && attribute(compaction, "agent_sessions.compaction.outcome")).toBe("completed");
			expect(compaction?.parentSpanId ?? "").toBe("");
		} finally {
			await receiver.close();
		}
	});

	it("the OpenTelemetry SDK and exporter are imported only when an endpoint is set (a real process, its imports watched)", async () => {
		const dir = await fs.mkdtemp(path.join(os.tmpdir(), "agent-otel-imports-"));
		try {
			await fs.writeFile(path.join(dir, "config.yaml"), "default_model: demo\n");
			await fs.writeFile(
				path.join(dir, "hooks.mjs"),
				`import fs from "node:fs";
export async function resolve(specifier, context, next) {
	if (specifier.startsWith("@opentelemetry/")) fs.appendFileSync(process.env.IMPORTS_LOG, specifier + "\\n");
	return next(specifier, context);
}
`,
			);
			await fs.writeFile(
				path.join(dir, "register.mjs"),
				'import { register } from "node:module";\nregister("./hooks.mjs", import.meta.url);\n',
			);
			const importsWith = async (env: NodeJS.ProcessEnv): Promise<string[]> => {
				const log = path.join(dir, `imports-${Math.random().toString(36).slice(2)}.log`);
				await fs.writeFile(log, "");
				const child = spawn(
					process.execPath,
					["--import", path.join(dir, "register.mjs"), BIN, "--home", dir, "--port", "0"],
					{
						env: { PATH: process.env.PATH, HOME: dir, IMPORTS_LOG: log, ...env },
						stdio: ["ignore", "pipe", "ignore"],
					},
				);
				await new Promise<void>((resolve, reject) => {
					let out = "";
					child.stdout?.on("data", (chunk) => {
						out += chunk;
						if (out.includes("listening on")) resolve();
					});
					child.once("exit", () => reject(new Error("the server exited before listening")));
				});
				const exited = new Promise((resolve) => child.once("exit", resolve));
				child.kill("SIGTERM");
				await exited;
				return (await fs.readFile(log, "utf8")).split("\n").filter(Boolean);
			};
			const without = await importsWith({});
			expect(without.filter((name) => name !== "@opentelemetry/api")).toEqual([]);
			const withEndpoint = await importsWith({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:9" });
			expect(withEndpoint).toEqual(
				expect.arrayContaining(["@opentelemetry/sdk-trace-base", "@opentelemetry/exporter-trace-otlp-http"]),
			);
		} finally {
			await fs.rm(dir, { recursive: true, force: true });
		}
	}, 60_000);
});
