export { type BackwardReadOptions, DEFAULT_BACKWARD_CHUNK, readLinesBackward } from "./backward-reader.js";
export { readCacheFile, replaceCacheFile } from "./cache-files.js";
export { PREFIX } from "./errors.js";
export type { FileSessionLease } from "./lease.js";
export {
	DEFAULT_FORWARD_CHUNK,
	DEFAULT_MAX_LINE_BYTES,
	type ForwardReadOptions,
	type RawLine,
	readLinesForward,
} from "./line-reader.js";
export { type LogState, loadLogState } from "./log-state.js";
export type { Durability, FileStoreOptions } from "./options.js";
export { cachePath, resolveHome, type SessionPaths, sessionPaths, sessionsRoot } from "./paths.js";
export { quickSeq } from "./read-ops.js";
export {
	classifyLine,
	classifyLineLoading,
	type LineOutcome,
	type RecordReadOptions,
	readRecordsBackward,
	readRecordsForward,
} from "./record-reader.js";
export { createFileStore, FileSessionStore } from "./store.js";
