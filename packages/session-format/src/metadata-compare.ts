import type { SessionMetadata } from "./metadata.js";
import { METADATA_KEYS } from "./schema-keys.js";
import type { VerifyProblem } from "./store-contract.js";
import { truncateText } from "./text-cut.js";

/** A store's cached metadata of a session, as verify finds it. */
export type StoredMetadata =
	| { state: "ok"; metadata: SessionMetadata }
	| { state: "missing" }
	| { state: "invalid"; reason: string };

/**
 * What a cache is not checked on: the id (the session's own), the shape's version, and the preview
 * of the first message (a cache written before it existed lacks it until it is rebuilt).
 */
const NOT_COMPARED: ReadonlySet<string> = new Set(["id", "metadataVersion", "firstMessage"]);
/** The fields a cache must agree on with its log (every field derived from records), in the schema's order. */
const COMPARED = METADATA_KEYS.filter((key) => !NOT_COMPARED.has(key)) as ReadonlyArray<keyof SessionMetadata>;

/**
 * The problems of a cache compared with the metadata its log says, field by field, in the same
 * words in every store (metadata.json on disk, a jsonb column in PostgreSQL): one problem per
 * field that differs, naming both values.
 */
export function compareMetadata(cached: StoredMetadata, rebuilt: SessionMetadata): VerifyProblem[] {
	if (cached.state === "missing") {
		return [{ kind: "metadata_missing", message: "the metadata cache is missing; repair rebuilds it from the log" }];
	}
	if (cached.state === "invalid") {
		return [
			{ kind: "metadata_drift", message: `the metadata cache is damaged (${cached.reason}); repair rebuilds it` },
		];
	}
	const problems: VerifyProblem[] = [];
	for (const key of COMPARED) {
		const have = stableJson(cached.metadata[key]);
		const want = stableJson(rebuilt[key]);
		if (have !== want) {
			problems.push({
				kind: "metadata_drift",
				message: `the metadata cache has ${key} ${clipValue(have)} but the log says ${clipValue(want)}; repair rewrites it`,
			});
		}
	}
	return problems;
}

function clipValue(json: string | undefined): string {
	return json === undefined ? "unset" : truncateText(json, 121);
}

/** JSON with object keys sorted: two equal values compare equal whatever order their keys came in (jsonb keeps none). */
function stableJson(value: unknown): string | undefined {
	return JSON.stringify(value, (_key, inner: unknown) =>
		inner && typeof inner === "object" && !Array.isArray(inner)
			? Object.fromEntries(Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
			: inner,
	);
}
