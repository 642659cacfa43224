import type { ListPage, SessionContext, SessionMetadata, StoredRecord } from "@agent/session-format";

/** An API error as the server reports it. */
export class ApiError extends Error {
	constructor(
		readonly status: number,
		readonly code: string,
		message: string,
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

	createSession(body: { name?: string; model?: string } = {}): Promise<SessionMetadata> {
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

	/** Every record of a session after `after`, page by page. */
	async allRecords(id: string, after = 0): Promise<StoredRecord[]> {
		const out: StoredRecord[] = [];
		let cursor: number | undefined = after;
		while (cursor !== undefined) {
			const page: RecordsPage = await this.request("GET", `/api/sessions/${id}/records?after=${cursor}&limit=1000`);
			out.push(...page.records);
			cursor = page.nextAfter;
		}
		return out;
	}

	context(id: string, leafSeq?: number | null): Promise<ContextView> {
		const query = leafSeq ? `?leafSeq=${leafSeq}` : "";
		return this.request("GET", `/api/sessions/${id}/context${query}`);
	}

	send(id: string, content: string): Promise<QueuedTurn> {
		return this.request("POST", `/api/sessions/${id}/messages`, { content });
	}

	compact(id: string): Promise<{ compacted: boolean }> {
		return this.request("POST", `/api/sessions/${id}/compact`, {});
	}

	fork(id: string, atSeq?: number): Promise<SessionMetadata> {
		return this.request("POST", `/api/sessions/${id}/fork`, atSeq ? { atSeq } : {});
	}

	branch(id: string, atSeq: number): Promise<SessionMetadata> {
		return this.request("POST", `/api/sessions/${id}/branch`, { atSeq });
	}

	private async request<T>(method: string, url: string, body?: unknown, retried = false): Promise<T> {
		const headers: Record<string, string> = {};
		if (body !== undefined) headers["Content-Type"] = "application/json";
		const token = this.token;
		if (token) headers.Authorization = `Bearer ${token}`;
		const response = await fetch(url, {
			method,
			headers,
			...(body !== undefined ? { body: JSON.stringify(body) } : {}),
		});
		if (response.status === 401 && !retried) {
			await this.onUnauthorized();
			return this.request(method, url, body, true);
		}
		if (response.status === 204) return undefined as T;
		const payload = (await response.json().catch(() => undefined)) as
			| { error?: { code?: string; message?: string } }
			| undefined;
		if (!response.ok) {
			const message = payload?.error?.message ?? `${method} ${url} failed with HTTP ${response.status}`;
			throw new ApiError(response.status, payload?.error?.code ?? "HTTP_ERROR", message);
		}
		return payload as T;
	}
}
