import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";

/** Seconds: from a fast API call to a turn that runs for many minutes. */
const TURN_BUCKETS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800];
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 120];

/**
 * The server's Prometheus metrics (GET /metrics), in a registry of its own: every metric name
 * starts with `agent_`, plus prom-client's process and Node.js metrics (`process_*`, `nodejs_*`).
 * Counts are this instance's: on PostgreSQL, events relayed from other instances are not counted
 * (sum over instances in the query).
 */
export class ServerMetrics {
	readonly registry = new Registry();

	readonly httpRequests = this.counter("agent_http_requests_total", "HTTP requests answered", [
		"method",
		"route",
		"status",
	]);
	readonly httpDuration = this.histogram(
		"agent_http_request_duration_seconds",
		"Time to answer an HTTP request (a ?wait=1 send includes its turn)",
		["method", "route"],
		REQUEST_BUCKETS,
	);
	readonly turns = this.counter("agent_turns_total", "Turns ended, by outcome and model", ["outcome", "model"]);
	readonly turnDuration = this.histogram(
		"agent_turn_duration_seconds",
		"Time from a turn's start (it left the queue) to its end",
		["outcome", "model"],
		TURN_BUCKETS,
	);
	readonly turnQueueWait = this.histogram(
		"agent_turn_queue_wait_seconds",
		"Time a turn waited in its session's queue (and for a turn slot) before it started",
		[],
		TURN_BUCKETS,
	);
	readonly modelCalls = this.counter("agent_model_calls_total", "Model calls ended, by stop reason", [
		"model",
		"provider",
		"stop_reason",
	]);
	readonly modelCallDuration = this.histogram(
		"agent_model_call_duration_seconds",
		"Time of one model call (the whole streamed reply)",
		["model", "provider"],
		TURN_BUCKETS,
	);
	readonly modelRetries = this.counter(
		"agent_model_call_retries_total",
		"Model calls made again (e.g. after a context overflow was compacted)",
		["model", "reason"],
	);
	readonly tokens = this.counter("agent_tokens_total", "Tokens used by model calls", ["model", "kind"]);
	readonly cost = this.counter("agent_cost_usd_total", "Cost of model calls, in US dollars (pi-ai's prices)", [
		"model",
	]);
	readonly compactions = this.counter("agent_compactions_total", "Compactions ended, by trigger and outcome", [
		"trigger",
		"outcome",
	]);
	readonly compactionDuration = this.histogram(
		"agent_compaction_duration_seconds",
		"Time of a compaction (all its summarizer calls)",
		["trigger"],
		TURN_BUCKETS,
	);
	readonly turnsQueued = this.gauge("agent_turns_queued", "Turns accepted and waiting to start");
	readonly turnsRunning = this.gauge("agent_turns_running", "Turns running now");
	readonly leaseWait = this.histogram(
		"agent_lease_wait_seconds",
		"Time to take a session's write lease (another process or instance may hold it)",
		["outcome"],
		[0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 30, 120, 300],
	);
	readonly storeErrors = this.counter("agent_store_errors_total", "Store operations that failed in the store", [
		"operation",
		"code",
	]);

	constructor(options: { defaultMetrics?: boolean } = {}) {
		if (options.defaultMetrics !== false) collectDefaultMetrics({ register: this.registry });
	}

	/** A gauge read when scraped (e.g. open WebSockets, readiness). */
	observe(name: string, help: string, read: () => number | Promise<number>): void {
		new Gauge({
			name,
			help,
			registers: [this.registry],
			async collect() {
				this.set(await read());
			},
		});
	}

	text(): Promise<string> {
		return this.registry.metrics();
	}

	get contentType(): string {
		return this.registry.contentType;
	}

	private counter<L extends string>(name: string, help: string, labelNames: L[]): Counter<L> {
		return new Counter({ name, help, labelNames, registers: [this.registry] });
	}

	private histogram<L extends string>(name: string, help: string, labelNames: L[], buckets: number[]): Histogram<L> {
		return new Histogram({ name, help, labelNames, buckets, registers: [this.registry] });
	}

	private gauge(name: string, help: string): Gauge {
		return new Gauge({ name, help, registers: [this.registry] });
	}
}
