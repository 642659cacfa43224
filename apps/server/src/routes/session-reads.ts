import type { RecordProblem, StoredRecord } from "@agent/session-format";
import type { Hono } from "hono";
import type { RouteDeps } from "../app.js";
import { queryParams, sessionIdParam } from "../request-input.js";
import { contextQuery, recordsQuery } from "../schemas.js";

const DEFAULT_RECORDS_LIMIT = 200;
/** At most this many damaged lines are reported with one page. */
const MAX_PROBLEMS = 20;

/** A session's records (paged by seq, every branch) and the context its LLM sees. */
export function registerSessionReadRoutes(app: Hono, { runtime, models }: RouteDeps): void {
	app.get("/api/sessions/:id/records", async (c) => {
		const id = sessionIdParam(c);
		const query = queryParams(c, recordsQuery);
		const metadata = await runtime.metadata(id);
		const after = query.after ?? 0;
		const limit = query.limit ?? DEFAULT_RECORDS_LIMIT;
		const records: StoredRecord[] = [];
		// A damaged line (bad JSON, a line too long to read) is skipped by the store and reported here.
		const problems: RecordProblem[] = [];
		const onProblem = (problem: RecordProblem) => {
			if (problems.length < MAX_PROBLEMS && problem.code !== "TORN_TAIL") problems.push(problem);
		};
		if (after < metadata.lastSeq) {
			for await (const record of runtime.store.readFrom(id, after + 1, { onProblem })) {
				records.push(record);
				if (records.length >= limit) break;
			}
		}
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

	app.get("/api/sessions/:id/context", async (c) => {
		const id = sessionIdParam(c);
		const query = queryParams(c, contextQuery);
		const opened = await runtime.open(id, query.leafSeq !== undefined ? { leafSeq: query.leafSeq } : {});
		const model = opened.metadata.model || runtime.defaultModel();
		const contextWindow = models.contextWindowOf(model);
		return c.json({
			sessionId: id,
			model,
			...(contextWindow !== undefined ? { contextWindow } : {}),
			context: opened.context,
		});
	});
}
