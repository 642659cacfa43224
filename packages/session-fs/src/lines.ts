/**
 * @agent/session-fs/lines: the low-level readers the store is made of, for tools that read
 * session.jsonl files themselves (the store's own users need none of it): lines forwards and
 * backwards in chunks of any size, records by the format's reader rules, the state of a log.
 */
export { type BackwardReadOptions, DEFAULT_BACKWARD_CHUNK, readLinesBackward } from "./backward-reader.js";
export {
	DEFAULT_FORWARD_CHUNK,
	DEFAULT_MAX_LINE_BYTES,
	type ForwardReadOptions,
	type RawLine,
	readLinesForward,
} from "./line-reader.js";
export { type LogState, loadLogState } from "./log-state.js";
export { quickSeq } from "./quick-seq.js";
export {
	classifyLine,
	classifyLineLoading,
	type LineOutcome,
	type RecordReadOptions,
	readRecordsBackward,
	readRecordsForward,
} from "./record-reader.js";
