import { isDeepStrictEqual } from "node:util";
import type { CheckpointEntry } from "./thread-index.js";

export interface ListQuery {
	/** Only this namespace (undefined: every namespace). */
	ns: string | undefined;
	/** Only this checkpoint. */
	id: string | undefined;
	/** Only checkpoints older than this one (ids are time-ordered). */
	before: string | undefined;
	filter: Record<string, unknown> | undefined;
}

/**
 * Whether a checkpoint matches list's config and options as LangGraph's savers match them: its
 * namespace, its id, `before`, and each key of `filter` equal (deeply) to the same key of its
 * metadata. `undefined` when the metadata is not JSON in the index and the filter must look at it.
 */
export function matches(entry: CheckpointEntry, query: ListQuery): boolean | undefined {
	if (query.ns !== undefined && entry.ns !== query.ns) return false;
	if (query.id !== undefined && entry.id !== query.id) return false;
	if (query.before !== undefined && !(entry.id < query.before)) return false;
	if (query.filter === undefined || Object.keys(query.filter).length === 0) return true;
	if (entry.metadata === undefined) return undefined;
	return metadataMatches(entry.metadata, query.filter);
}

export function metadataMatches(metadata: unknown, filter: Record<string, unknown>): boolean {
	const object = (typeof metadata === "object" && metadata !== null ? metadata : {}) as Record<string, unknown>;
	return Object.entries(filter).every(([key, value]) => isDeepStrictEqual(object[key], value));
}

/** Newest first: by checkpoint id, descending, as every LangGraph saver lists. */
export function newestFirst(a: { entry: CheckpointEntry }, b: { entry: CheckpointEntry }): number {
	return a.entry.id < b.entry.id ? 1 : a.entry.id > b.entry.id ? -1 : 0;
}
