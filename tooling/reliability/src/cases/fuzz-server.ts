import { readdirSync } from "node:fs";
import { newSessionId, SESSION_ID_PATTERN } from "@agent/session-format";
import fc from "fast-check";
import { type FuzzRequest, fuzzRequest } from "../fuzz/requests.js";
import { unsafeIds } from "../fuzz/unsafe-ids.js";
import type { CaseContext, ReliabilityCase } from "../support/case.js";
import { json, request } from "../support/http.js";
import { makeSandbox } from "../support/sandbox.js";
import { startServer } from "../support/server-process.js";

const BATCH = 25;

/**
 * Fuzzed HTTP requests to the real server (routes, methods, real, unknown and unsafe ids, query
 * strings, content types, bodies with wrong types, __proto__ keys, deep nesting, invalid JSON,
 * oversized bodies): every answer is below 500, every /api error is a JSON `{ error: { code } }`,
 * the server stays up, nothing appears outside its home, and no prototype is polluted.
 */
async function run(context: CaseContext): Promise<void> {
	const total = context.profile.fuzzServer.requests;
	const sandbox = makeSandbox("fuzz-server");
	const server = await startServer(sandbox.home);
	try {
		const ids: string[] = [];
		for (let i = 0; i < 8; i++) {
			const created = await json<{ id: string }>(server.url, "POST", "/api/sessions", { name: `fuzz ${i}` });
			ids.push(created.id);
			await json(server.url, "POST", `/api/sessions/${created.id}/messages?wait=1`, { content: "hello" });
		}
		const idArbitrary = fc.oneof(
			{ weight: 4, arbitrary: fc.constantFrom(...ids) },
			{ weight: 1, arbitrary: fc.constant(newSessionId()) },
			{ weight: 2, arbitrary: fc.constantFrom(...unsafeIds(newSessionId(), sandbox.root)) },
			{ weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
		);
		const statuses = new Map<number, number>();
		let previous = "nothing";
		const serverErrors: string[] = [];
		const seed = context.random.fork();
		for (let done = 0; done < total; done += BATCH) {
			const batch = fc.sample(fuzzRequest(idArbitrary), { numRuns: Math.min(BATCH, total - done), seed: seed + done });
			for (const entry of batch) {
				const outcome = await send(server.url, entry);
				statuses.set(outcome.status, (statuses.get(outcome.status) ?? 0) + 1);
				if (outcome.status >= 500 || outcome.status === 0) {
					serverErrors.push(`${describe(entry)} -> ${outcome.status} ${outcome.text} (after ${previous})`);
				} else if (isApi(entry) && outcome.status >= 400 && outcome.status !== 431 && !outcome.code) {
					context.check(
						false,
						`${describe(entry)} -> ${outcome.status} without a JSON error code: ${outcome.text.slice(0, 200)}`,
					);
				}
				previous = `${describe(entry).slice(0, 300)} -> ${outcome.status}`;
			}
			if (server.child.hasExited) break;
		}
		context.check(
			serverErrors.length === 0,
			`${serverErrors.length} answers of 500 or more, e.g.:\n      ${serverErrors.slice(0, 8).join("\n      ")}`,
		);
		context.check(!server.child.hasExited, `the server exited: ${server.child.stderr.slice(0, 500)}`);
		const health = await request(server.url, "GET", "/healthz");
		context.check(health.status === 200, `/healthz answered ${health.status} after the fuzz`);
		const listed = await request(server.url, "GET", "/api/sessions?limit=500&archived=true");
		context.check(!listed.text.includes('"polluted"'), "a __proto__ key got into stored metadata");
		const outside = readdirSync(sandbox.root).filter((name) => name !== "home");
		context.check(outside.length === 0, `files appeared outside the home: ${outside.join(", ")}`);
		const strays = readdirSync(`${sandbox.home}/sessions`).filter(
			(name) => !SESSION_ID_PATTERN.test(name) && !name.startsWith(".deleted-"),
		);
		context.check(
			strays.length === 0,
			`the sessions directory holds entries that are not session ids: ${strays.join(", ")}`,
		);
		context.figure(
			"fuzzed requests",
			[...statuses.values()].reduce((a, b) => a + b, 0),
		);
		context.figure(
			"answers by status",
			[...statuses.entries()]
				.sort((a, b) => a[0] - b[0])
				.map(([status, count]) => `${status}: ${count}`)
				.join(", "),
		);
		context.figure("answers of 500 or more", serverErrors.length);
	} finally {
		await server.stop();
		sandbox.remove();
	}
}

async function send(base: string, entry: FuzzRequest): Promise<{ status: number; text: string; code?: string }> {
	try {
		return await request(base, entry.method, `${entry.path}${entry.query}`, {
			headers: entry.headers,
			...(entry.body === undefined ? {} : { body: entry.body }),
		});
	} catch (error) {
		return { status: 0, text: `the request failed: ${(error as Error).message} ${(error as Error).cause ?? ""}` };
	}
}

/**
 * An /api request whose answer has a body (HEAD answers never do). A 431 for headers or a URL
 * over Node's 16 KiB limit comes from Node's HTTP parser, before the app, without a JSON body.
 */
function isApi(entry: FuzzRequest): boolean {
	return entry.path.startsWith("/api/") && entry.method !== "HEAD";
}

function describe(entry: FuzzRequest): string {
	const body =
		entry.body === undefined
			? ""
			: ` body ${JSON.stringify(entry.body.slice(0, 120))}${entry.body.length > 120 ? `... (${entry.body.length} bytes)` : ""}`;
	return `${entry.method} ${entry.path.slice(0, 100)}${entry.query.slice(0, 100)} [${entry.headers["content-type"] ?? "no type"}]${body}`;
}

export const fuzzServer: ReliabilityCase = { name: "fuzz-server", run };
