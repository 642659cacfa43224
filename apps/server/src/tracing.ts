import type { Usage } from "@agent/session-format";
import type { Span, Tracer } from "@opentelemetry/api";
import type { TurnObserver } from "./turn-watch.js";
import { SERVER_VERSION } from "./version.js";

/** The packages tracing needs; optional peer dependencies of the server, loaded only when it is on. */
export const TRACING_PACKAGES = [
	"@opentelemetry/api",
	"@opentelemetry/sdk-trace-base",
	"@opentelemetry/exporter-trace-otlp-http",
	"@opentelemetry/resources",
];

export interface Tracing {
	observer: TurnObserver;
	/** Sends the spans not sent yet and stops. */
	shutdown(): Promise<void>;
}

/**
 * Where spans go: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT or OTEL_EXPORTER_OTLP_ENDPOINT (the
 * exporter reads them, with OTEL_EXPORTER_OTLP_HEADERS and the rest), else config.yaml's
 * server.otlp_endpoint; undefined when none is set, or when OTEL_SDK_DISABLED=true.
 */
export function tracingEndpoint(env: NodeJS.ProcessEnv, configured: string | undefined): string | undefined {
	if (env.OTEL_SDK_DISABLED === "true") return undefined;
	return env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT || configured || undefined;
}

/**
 * Starts sending spans (OTLP over HTTP) of turns, model calls and compactions, named and
 * attributed as the OpenTelemetry GenAI semantic conventions say: a turn is an `invoke_agent`
 * span, each model call a `chat {model}` client span inside it, a compaction an internal span
 * (inside its turn when a turn triggered it). The OpenTelemetry packages are imported here, only
 * when an endpoint is configured: a server without tracing never loads them.
 */
export async function startTracing(options: {
	env: NodeJS.ProcessEnv;
	/** config.yaml's server.otlp_endpoint: the base URL, as OTEL_EXPORTER_OTLP_ENDPOINT is. */
	configured?: string;
}): Promise<Tracing | undefined> {
	const { env } = options;
	if (!tracingEndpoint(env, options.configured)) return undefined;
	let modules: [
		typeof import("@opentelemetry/api"),
		typeof import("@opentelemetry/sdk-trace-base"),
		typeof import("@opentelemetry/exporter-trace-otlp-http"),
		typeof import("@opentelemetry/resources"),
	];
	try {
		modules = await Promise.all([
			import("@opentelemetry/api"),
			import("@opentelemetry/sdk-trace-base"),
			import("@opentelemetry/exporter-trace-otlp-http"),
			import("@opentelemetry/resources"),
		]);
	} catch (error) {
		throw new Error(
			`agent-sessions-server: an OTLP endpoint is configured, but the OpenTelemetry packages are not installed; install them (npm install ${TRACING_PACKAGES.join(" ")}) or unset the endpoint`,
			{ cause: error },
		);
	}
	const [api, sdk, otlp, resources] = modules;
	// Given explicitly: the exporter would read process.env, which is not always the environment the server was given.
	const base = env.OTEL_EXPORTER_OTLP_ENDPOINT || options.configured || "";
	const url = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || `${base.replace(/\/+$/, "")}/v1/traces`;
	const exporter = new otlp.OTLPTraceExporter({ url });
	const provider = new sdk.BasicTracerProvider({
		resource: resources.resourceFromAttributes({
			"service.name": env.OTEL_SERVICE_NAME || "agent-sessions-server",
			"service.version": SERVER_VERSION,
		}),
		spanProcessors: [new sdk.BatchSpanProcessor(exporter, { scheduledDelayMillis: 1000 })],
	});
	const tracer = provider.getTracer("agent-sessions-server", SERVER_VERSION);
	return {
		observer: genAiSpans(tracer, api),
		shutdown: () => provider.shutdown(),
	};
}

type Api = typeof import("@opentelemetry/api");

/** The spans, from the turn watcher's reports. Times are the events' own, so a span is as long as what it measures. */
function genAiSpans(tracer: Tracer, api: Api): TurnObserver {
	const turns = new Map<string, Span>();
	const calls = new Map<string, Span>();
	const compactions = new Map<string, Span>();
	const within = (turnId: string | undefined) => {
		const parent = turnId === undefined ? undefined : turns.get(turnId);
		return parent ? api.trace.setSpan(api.ROOT_CONTEXT, parent) : api.ROOT_CONTEXT;
	};
	return {
		turnStarted(turn) {
			const span = tracer.startSpan(
				"invoke_agent agent-sessions",
				{
					kind: api.SpanKind.INTERNAL,
					startTime: turn.startedAt,
					attributes: {
						"gen_ai.operation.name": "invoke_agent",
						"gen_ai.agent.name": "agent-sessions",
						"gen_ai.conversation.id": turn.sessionId,
						"agent_sessions.turn.id": turn.turnId,
						...(turn.queuedMs !== undefined ? { "agent_sessions.turn.queued_ms": turn.queuedMs } : {}),
					},
				},
				api.ROOT_CONTEXT,
			);
			turns.set(turn.turnId, span);
		},
		modelStarted(call) {
			const { provider, model } = splitModel(call.model);
			const span = tracer.startSpan(
				`chat ${model}`,
				{
					kind: api.SpanKind.CLIENT,
					startTime: call.startedAt,
					attributes: {
						"gen_ai.operation.name": "chat",
						"gen_ai.request.model": model,
						...(provider ? { "gen_ai.provider.name": provider } : {}),
						"gen_ai.conversation.id": call.sessionId,
						"agent_sessions.turn.id": call.turnId,
						"agent_sessions.model_call": call.call,
						...(call.retryOf ? { "agent_sessions.retry_of": call.retryOf } : {}),
					},
				},
				within(call.turnId),
			);
			calls.set(`${call.turnId}:${call.call}`, span);
		},
		modelEnded(call) {
			const key = `${call.turnId}:${call.call}`;
			const span = calls.get(key);
			if (!span) return;
			calls.delete(key);
			span.setAttributes({
				"gen_ai.provider.name": call.provider,
				"gen_ai.response.finish_reasons": [call.stopReason],
				...usageAttributes(call.usage),
			});
			if (call.stopReason === "error" || call.stopReason === "aborted")
				fail(api, span, call.error?.code, call.error?.message);
			span.end(call.startedAt + call.durationMs);
		},
		turnEnded(turn) {
			const span = turns.get(turn.turnId);
			if (!span) return;
			turns.delete(turn.turnId);
			span.setAttributes({
				...(turn.model ? { "gen_ai.request.model": splitModel(turn.model).model } : {}),
				"agent_sessions.turn.outcome": turn.outcome,
				"agent_sessions.turn.model_calls": turn.modelCalls,
				"agent_sessions.turn.retries": turn.retries,
				...usageAttributes(turn.usage),
			});
			if (turn.outcome !== "completed") fail(api, span, turn.error?.code ?? turn.outcome, turn.error?.message);
			span.end(turn.startedAt + turn.durationMs);
		},
		compactionStarted(compaction) {
			const span = tracer.startSpan(
				"compaction",
				{
					kind: api.SpanKind.INTERNAL,
					startTime: compaction.startedAt,
					attributes: {
						"gen_ai.conversation.id": compaction.sessionId,
						"agent_sessions.compaction.trigger": compaction.trigger,
						...(compaction.tokensBefore !== undefined
							? { "agent_sessions.compaction.tokens_before": compaction.tokensBefore }
							: {}),
					},
				},
				within(compaction.turnId),
			);
			compactions.set(compaction.sessionId, span);
		},
		compactionEnded(compaction) {
			const span = compactions.get(compaction.sessionId);
			if (!span) return;
			compactions.delete(compaction.sessionId);
			span.setAttribute("agent_sessions.compaction.outcome", compaction.outcome);
			if (compaction.tokensAfter !== undefined) {
				span.setAttribute("agent_sessions.compaction.tokens_after", compaction.tokensAfter);
			}
			if (compaction.outcome === "failed") fail(api, span, compaction.error?.code, compaction.error?.message);
			span.end(compaction.startedAt + compaction.durationMs);
		},
	};
}

/** "anthropic/claude-sonnet-4-5" → provider anthropic, model claude-sonnet-4-5; "demo" has no provider part. */
function splitModel(name: string): { provider?: string; model: string } {
	const slash = name.indexOf("/");
	return slash > 0 ? { provider: name.slice(0, slash), model: name.slice(slash + 1) } : { model: name };
}

function usageAttributes(usage: Usage | undefined): Record<string, number> {
	if (!usage) return {};
	return {
		"gen_ai.usage.input_tokens": usage.input,
		"gen_ai.usage.output_tokens": usage.output,
		...(usage.cacheRead > 0 ? { "gen_ai.usage.cache_read.input_tokens": usage.cacheRead } : {}),
		...(usage.cacheWrite > 0 ? { "gen_ai.usage.cache_creation.input_tokens": usage.cacheWrite } : {}),
		...(usage.cost ? { "agent_sessions.cost_usd": usage.cost.total } : {}),
	};
}

function fail(api: Api, span: Span, type: string | undefined, message: string | undefined): void {
	span.setAttribute("error.type", type ?? "error");
	span.setStatus({ code: api.SpanStatusCode.ERROR, ...(message ? { message } : {}) });
}
