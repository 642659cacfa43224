// @agent/compaction/cut-points: where a path may be cut (never between a tool call and its
// result, S7.13) and where prepareCompaction cuts it, for a planner of one's own.
export { type CutPoint, type CutPointRange, findCutPoint, validCutPoints } from "../cut-point.js";
