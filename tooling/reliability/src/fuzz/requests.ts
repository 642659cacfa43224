import fc from "fast-check";

/** One HTTP request of the server fuzz. */
export interface FuzzRequest {
	method: string;
	path: string;
	query: string;
	headers: Record<string, string>;
	body: string | undefined;
}

const ROUTES = [
	"/api/sessions",
	"/api/sessions/:id",
	"/api/sessions/:id/records",
	"/api/sessions/:id/context",
	"/api/sessions/:id/messages",
	"/api/sessions/:id/compact",
	"/api/sessions/:id/fork",
	"/api/sessions/:id/branch",
	"/api/sessions/:id/events",
	"/api/jobs",
	"/healthz",
	"/",
	"/assets/:id",
	"/api/:id",
];

const QUERY_KEYS = ["after", "limit", "leafSeq", "search", "archived", "source", "cursor", "wait", "x", "__proto__"];

const scalar = fc.oneof(
	fc.integer({ min: -5, max: 300 }).map(String),
	fc.constantFrom("", "0", "-1", "1.5", "1e3", "9".repeat(40), "NaN", "true", "only", "cron", "null", "[]", "%00"),
	fc.string({ unit: "binary", maxLength: 30 }),
	fc.integer({ min: 201, max: 6000 }).map((n) => "q".repeat(n)),
);

const deepJson = fc.integer({ min: 50, max: 200_000 }).map((depth) => `${"[".repeat(depth)}${"]".repeat(depth)}`);

/** Bodies shaped like the API's, with wrong types and hostile values in them. */
const shapedBody = fc
	.record(
		{
			name: fc.oneof(scalar, fc.jsonValue({ maxDepth: 2 })),
			archived: fc.oneof(fc.boolean(), scalar),
			content: fc.oneof(
				scalar,
				fc.jsonValue({ maxDepth: 3 }),
				fc.constant([{ type: "text", text: "hi" }]),
				fc.constant([{ type: "image", data: "x", mimeType: "image/png" }]),
				fc.constant([{ type: "toolCall", id: "1", name: "x", arguments: {} }]),
				fc.constant([{ type: "text" }]),
			),
			model: fc.oneof(scalar, fc.constantFrom("demo", "demo/demo", "anthropic/none", "../../x")),
			atSeq: fc.oneof(fc.integer({ min: -3, max: 50 }), scalar, fc.double()),
			keepRecentTokens: fc.oneof(fc.integer(), fc.double(), scalar),
			customInstructions: scalar,
			systemPromptOverride: scalar,
			id: scalar,
		},
		{ requiredKeys: [] },
	)
	.map((body) => JSON.stringify(body));

const body = fc.option(
	fc.oneof(
		shapedBody,
		shapedBody.map((text) => text.replace("{", '{"__proto__":{"polluted":true,"name":"p"},')),
		fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value)),
		deepJson,
		fc.string({ unit: "binary", maxLength: 200 }),
		fc.constantFrom("{", "null", "[]", '"x"', "1", "{}", '{"content":"hi"}', '{"atSeq":1}'),
		fc.integer({ min: 1, max: 6 }).map((mib) => `{"content":"${"b".repeat(mib << 20)}"}`),
	),
	{ nil: undefined },
);

const contentType = fc.constantFrom(
	"application/json",
	"application/json; charset=utf-8",
	"text/plain",
	"application/x-www-form-urlencoded",
	"multipart/form-data; boundary=x",
	"",
);

/** The API's endpoints, so most fuzzed requests reach a handler rather than a 404; DELETE is rare, to keep sessions around. */
const ENDPOINTS: fc.Arbitrary<[string, string]> = fc.oneof(
	{
		weight: 12,
		arbitrary: fc.constantFrom<[string, string]>(
			["GET", "/api/sessions"],
			["POST", "/api/sessions"],
			["GET", "/api/sessions/:id"],
			["PATCH", "/api/sessions/:id"],
			["GET", "/api/sessions/:id/records"],
			["GET", "/api/sessions/:id/context"],
			["POST", "/api/sessions/:id/messages"],
			["POST", "/api/sessions/:id/compact"],
			["POST", "/api/sessions/:id/fork"],
			["POST", "/api/sessions/:id/branch"],
			["GET", "/api/jobs"],
			["GET", "/healthz"],
		),
	},
	{ weight: 1, arbitrary: fc.constant<[string, string]>(["DELETE", "/api/sessions/:id"]) },
);

const ANY_ROUTE: fc.Arbitrary<[string, string]> = fc.tuple(
	fc.constantFrom("GET", "POST", "PATCH", "DELETE", "PUT", "OPTIONS", "HEAD"),
	fc.constantFrom(...ROUTES),
);

/** Fuzzed requests: routes, methods, ids (real, unknown, unsafe), query strings, headers and bodies. */
export function fuzzRequest(ids: fc.Arbitrary<string>): fc.Arbitrary<FuzzRequest> {
	return fc
		.record({
			endpoint: fc.oneof({ weight: 3, arbitrary: ENDPOINTS }, { weight: 1, arbitrary: ANY_ROUTE }),
			id: ids,
			query: fc.array(fc.tuple(fc.constantFrom(...QUERY_KEYS), scalar), { maxLength: 4 }),
			contentType: fc.oneof(
				{ weight: 3, arbitrary: fc.constant("application/json") },
				{ weight: 1, arbitrary: contentType },
			),
			body,
		})
		.map(({ endpoint: [method, route], id, query, contentType, body }) => {
			const path = route.replace(":id", encodeURIComponent(id).replaceAll(".", "%2E"));
			const search = new URLSearchParams(query).toString();
			const headers: Record<string, string> = {};
			if (contentType) headers["content-type"] = contentType;
			const hasBody = body !== undefined && method !== "GET" && method !== "HEAD";
			return { method, path, query: search ? `?${search}` : "", headers, body: hasBody ? body : undefined };
		});
}
