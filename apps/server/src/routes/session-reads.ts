import { exportSession } from "@agent/interop";
import type { AgentSessions } from "@agent/session";
import type { RecordProblem, StoredRecord } from "@agent/session-format";
import type { Hono } from "hono";
import { queryParams, sessionIdParam } from "../request-input.js";
import type { RouteDeps } from "../route-deps.js";
import { contextQuery, exportQuery, recordsQuery } from "../schemas.js";

const DEFAULT_RECORDS_LIMIT = 200;
/** At most this many damaged lines are reported with one page. */
const MAX_PROBLEMS = 20;

const EXPORT_TYPES = {
	md: { type: "text/markdown; charset=utf-8", extension: "md" },
	html: { type: "text/html; charset=utf-8", extension: "html" },
	jsonl: { type: "application/x-ndjson; charset=utf-8", extension: "jsonl" },
	pi: { type: "application/x-ndjson; charset=utf-8", extension: "pi.jsonl" },
} as const;

/**
 * The records with from <= seq < end, at most `limit` of them, in seq order. A damaged line (bad
 * JSON, a line too long to read) is skipped by the store and handed to `onProblem`.
 */
async function readRange(
	runtime: AgentSessions,
	id: string,
	range: { from: number; end: number; limit?: number },
	onProblem: (problem: RecordProblem) => void,
): Promise<StoredRecord[]> {
	const { from, end } = range;
	const limit = range.limit ?? end - from;
	const records: StoredRecord[] = [];
	for await (const record of runtime.store.readFrom(id, from, { onProblem })) {
		if (record.seq >= end) break;
		records.push(record);
		if (records.length >= limit) break;
	}
	return records;
}

/** A session's records (paged by seq, every branch), its export, and the context its LLM sees. */
export function registerSessionReadRoutes(app: Hono, { runtime, models }: RouteDeps): void {
	app.get("/api/sessions/:id/records", async (c) => {
		const id = sessionIdParam(c);
		const query = queryParams(c, recordsQuery);
		const metadata = await runtime.metadata(id);
		const limit = query.limit ?? DEFAULT_RECORDS_LIMIT;
		// Damaged lines the page skipped are reported with it (the store skips them).
		const problems: RecordProblem[] = [];
		const onProblem = (problem: RecordProblem) => {
			if (problems.length < MAX_PROBLEMS && problem.code !== "TORN_TAIL") problems.push(problem);
		};
		if (query.before !== undefined) {
			// The `limit` records just before `before` (seqs rise by one per line): a page opens at the latest.
			const end = Math.min(query.before, metadata.lastSeq + 1);
			const from = Math.max(1, end - limit);
			const records = end > 1 ? await readRange(runtime, id, { from, end }, onProblem) : [];
			const first = records[0];
			return c.json({
				sessionId: id,
				lastSeq: metadata.lastSeq,
				records,
				...(first !== undefined && first.seq > 1 ? { nextBefore: first.seq } : {}),
				...(problems.length > 0 ? { problems } : {}),
			});
		}
		const after = query.after ?? 0;
		const records =
			after < metadata.lastSeq
				? await readRange(runtime, id, { from: after + 1, end: Infinity, limit }, onProblem)
				: [];
		const last = records[records.length - 1];
		const more = last !== undefined && records.length >= limit && last.seq < metadata.lastSeq;
		return c.json({
			sessionId: id,
			lastSeq: metadata.lastSeq,
			records,
			...(more ? { nextAfter: last.seq } : {}),
			...(problems.length > 0 ? { problems } : {}),
		});
	});

	app.get("/api/sessions/:id/export", async (c) => {
		const id = sessionIdParam(c);
		const { format } = queryParams(c, exportQuery);
		await runtime.metadata(id);
		const chunks = exportSession(runtime.store, id, format)[Symbol.asyncIterator]();
		const encoder = new TextEncoder();
		const body = new ReadableStream<Uint8Array>({
			async pull(controller) {
				const next = await chunks.next();
				if (next.done) controller.close();
				else controller.enqueue(encoder.encode(next.value));
			},
			async cancel() {
				await chunks.return?.(undefined);
			},
		});
		const { type, extension } = EXPORT_TYPES[format];
		return new Response(body, {
			headers: {
				"Content-Type": type,
				"Content-Disposition": `attachment; filename="session-${id}.${extension}"`,
				// An exported page opened from here may load nothing and run nothing.
				"Content-Security-Policy": "default-src 'none'; img-src data:; style-src 'unsafe-inline'",
				"X-Content-Type-Options": "nosniff",
			},
		});
	});

	app.get("/api/sessions/:id/context", async (c) => {
		const id = sessionIdParam(c);
		const query = queryParams(c, contextQuery);
		const metadata = await runtime.metadata(id);
		// The context as the model gets it: old tool outputs pruned when config says so (`context.pruned`).
		const context = await runtime.modelContext(id, query.leafSeq !== undefined ? { leafSeq: query.leafSeq } : {});
		const model = metadata.model || runtime.defaultModel();
		const contextWindow = models.contextWindowOf(model);
		return c.json({
			sessionId: id,
			model,
			...(contextWindow !== undefined ? { contextWindow } : {}),
			context,
		});
	});

	app.get("/api/sessions/:id/turns", async (c) => {
		const id = sessionIdParam(c);
		await runtime.metadata(id);
		return c.json({ sessionId: id, turns: await runtime.turns(id) });
	});

	app.get("/api/sessions/:id/tools", async (c) => {
		const id = sessionIdParam(c);
		await runtime.metadata(id);
		return c.json({ sessionId: id, executions: await runtime.toolLog(id) });
	});
}
