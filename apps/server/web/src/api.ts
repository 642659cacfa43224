import type { ListPage, SessionContext, SessionMetadata, StoredRecord } from "@agent/session-format/reading";
import { describeError } from "./error-text.js";

/** An API error: its status and code, the message in words for the page, and the server's own text. */
export class ApiError extends Error {
	constructor(
		readonly status: number,
		readonly code: string,
		message: string,
		readonly detail: string = message,
	) {
		super(message);
		this.name = "ApiError";
	}
}

export interface RecordsPage {
	sessionId: string;
	lastSeq: number;
	records: StoredRecord[];
	nextAfter?: number;
	/** On a `before` page: there are older records, before this seq. */
	nextBefore?: number;
}

/** GET /api/models */
export interface ModelList {
	default: string;
	models: Array<{ name: string; provider: string; label: string; contextWindow?: number }>;
	unconfigured: string[];
}

/** GET /api/stats: usage and cost of the sessions the caller may see, per user; who asks and their spend today. */
export interface UsageStats {
	sessions: number;
	totals: { turns: number; totalTokens: number; cost: number };
	byUser: Record<string, { sessions: number; turns: number; totalTokens: number; cost: number }>;
	user: { name?: string; admin: boolean; dailySpendLimit?: number; spentToday?: number };
}

export type ExportFormat = "md" | "html" | "jsonl" | "pi";

/** GET /api/search: one message whose text holds the query. */
export interface SearchHit {
	sessionId: string;
	/** The session's name, when it has one. */
	sessionName?: string;
	seq: number;
	role: string;
	snippet: string;
	timestamp: string;
}

/** GET /api/sessions/:id/context: the session's model (name), its window, and the context the LLM sees. */
export interface ContextView {
	sessionId: string;
	model: string;
	contextWindow?: number;
	context: SessionContext;
}

export interface QueuedTurn {
	sessionId: string;
	turnId: string;
	position: number;
}

const TOKEN_KEY = "agent-sessions.token";

/**
 * An API path ("/api/...") as a URL relative to the page, so that a server behind a proxy under a
 * base path (/agents/ serving /agents/api/...) is called where it is.
 */
export function pageRelative(apiPath: string): URL {
	return new URL(apiPath.replace(/^\/+/, ""), document.baseURI);
}

/** The server's HTTP API, with the bearer token (kept for this tab only) when the server asks for one. */
export class Api {
	/** Called on a 401; resolves once a token was entered, and the request is retried with it. */
	onUnauthorized: () => Promise<void> = async () => {};

	get token(): string | undefined {
		return sessionStorage.getItem(TOKEN_KEY) ?? undefined;
	}

	set token(value: string | undefined) {
		if (value) sessionStorage.setItem(TOKEN_KEY, value);
		else sessionStorage.removeItem(TOKEN_KEY);
	}

	listSessions(options: { search?: string; archived?: boolean; cursor?: string; limit?: number }): Promise<ListPage> {
		const query = new URLSearchParams();
		if (options.search) query.set("search", options.search);
		if (options.archived) query.set("archived", "true");
		if (options.cursor) query.set("cursor", options.cursor);
		query.set("limit", String(options.limit ?? 50));
		return this.request("GET", `/api/sessions?${query}`);
	}

	createSession(body: { name?: string; model?: string; deferred?: boolean } = {}): Promise<SessionMetadata> {
		return this.request("POST", "/api/sessions", body);
	}

	session(id: string): Promise<SessionMetadata> {
		return this.request("GET", `/api/sessions/${id}`);
	}

	updateSession(id: string, body: { name?: string; archived?: boolean }): Promise<SessionMetadata> {
		return this.request("PATCH", `/api/sessions/${id}`, body);
	}

	deleteSession(id: string): Promise<void> {
		return this.request("DELETE", `/api/sessions/${id}`);
	}

	/** Up to `limit` records just before `before` (the newest ones with a large `before`). */
	recordsBefore(id: string, before: number, limit = 1000): Promise<RecordsPage> {
		return this.request("GET", `/api/sessions/${id}/records?before=${before}&limit=${limit}`);
	}

	/** Up to `limit` records after `after`. */
	recordsAfter(id: string, after: number, limit = 1000): Promise<RecordsPage> {
		return this.request("GET", `/api/sessions/${id}/records?after=${after}&limit=${limit}`);
	}

	/** Full-text search over message text (the store's search, as the CLI's `search`): a page of hits and their count. */
	search(
		text: string,
		options: { archived?: boolean; limit?: number; offset?: number } = {},
	): Promise<{ hits: SearchHit[]; total?: number; totalIsMinimum?: boolean; nextOffset?: number }> {
		const query = new URLSearchParams({ q: text, limit: String(options.limit ?? 30) });
		if (options.archived) query.set("archived", "true");
		if (options.offset) query.set("offset", String(options.offset));
		return this.request("GET", `/api/search?${query}`);
	}

	stats(): Promise<UsageStats> {
		return this.request("GET", "/api/stats");
	}

	models(): Promise<ModelList> {
		return this.request("GET", "/api/models");
	}

	label(id: string, targetSeq: number, label: string): Promise<SessionMetadata> {
		return this.request("POST", `/api/sessions/${id}/labels`, { targetSeq, label });
	}

	/** The session exported in a format, as text (for a download or the clipboard). */
	async exportText(id: string, format: ExportFormat): Promise<string> {
		const response = await this.fetchWithToken("GET", `/api/sessions/${id}/export?format=${format}`);
		if (!response.ok) await this.fail(response, "GET", "export");
		return response.text();
	}

	context(id: string, leafSeq?: number | null): Promise<ContextView> {
		const query = leafSeq ? `?leafSeq=${leafSeq}` : "";
		return this.request("GET", `/api/sessions/${id}/context${query}`);
	}

	/** Queues a message; `parentSeq` continues the branch on screen instead of the active one. */
	send(
		id: string,
		content: string,
		options: { model?: string | undefined; parentSeq?: number } = {},
	): Promise<QueuedTurn> {
		return this.request("POST", `/api/sessions/${id}/messages`, {
			content,
			...(options.model ? { model: options.model } : {}),
			...(options.parentSeq !== undefined ? { parentSeq: options.parentSeq } : {}),
		});
	}

	compact(
		id: string,
		options: { customInstructions?: string; keepRecentTokens?: number } = {},
	): Promise<{ compacted: boolean; cancelled?: boolean }> {
		return this.request("POST", `/api/sessions/${id}/compact`, options);
	}

	/** Stops the compactions of the session this server's API runs (nothing is written). */
	cancelCompaction(id: string): Promise<{ cancelled: number }> {
		return this.request("POST", `/api/sessions/${id}/compact/cancel`, {});
	}

	fork(id: string, options: { atSeq?: number; name?: string } = {}): Promise<SessionMetadata> {
		return this.request("POST", `/api/sessions/${id}/fork`, options);
	}

	/** Moves the active leaf; with `summarize`, the branch left becomes a branch_summary at the new leaf. */
	branch(id: string, atSeq: number, summarize = false): Promise<SessionMetadata> {
		return this.request("POST", `/api/sessions/${id}/branch`, summarize ? { atSeq, summarize } : { atSeq });
	}

	/** Stops the session's running turn (what it stored stays stored). */
	cancelTurn(id: string): Promise<{ cancelled: boolean; turnId?: string }> {
		return this.request("POST", `/api/sessions/${id}/cancel`);
	}

	private async request<T>(method: string, url: string, body?: unknown): Promise<T> {
		const response = await this.fetchWithToken(method, url, body);
		if (response.status === 204) return undefined as T;
		if (!response.ok) await this.fail(response, method, url);
		return (await response.json()) as T;
	}

	/** fetch with the token; a 401 asks for one (once) and retries. */
	private async fetchWithToken(method: string, url: string, body?: unknown, retried = false): Promise<Response> {
		const headers: Record<string, string> = {};
		if (body !== undefined) headers["Content-Type"] = "application/json";
		const token = this.token;
		if (token) headers.Authorization = `Bearer ${token}`;
		let response: Response;
		try {
			response = await fetch(pageRelative(url), {
				method,
				headers,
				...(body !== undefined ? { body: JSON.stringify(body) } : {}),
			});
		} catch (error) {
			// No answer at all (the server stopped, the network is down): fetch says only "Failed to fetch".
			const raw = (error as Error).message;
			throw new ApiError(0, "NETWORK", describeError("NETWORK", raw), raw);
		}
		if (response.status === 401 && !retried) {
			await this.onUnauthorized();
			return this.fetchWithToken(method, url, body, true);
		}
		return response;
	}

	private async fail(response: Response, method: string, url: string): Promise<never> {
		const payload = (await response.json().catch(() => undefined)) as
			| { error?: { code?: string; message?: string } }
			| undefined;
		const raw = payload?.error?.message ?? `${method} ${url} failed with HTTP ${response.status}`;
		const code = payload?.error?.code ?? "HTTP_ERROR";
		throw new ApiError(response.status, code, describeError(code, raw), raw);
	}
}
