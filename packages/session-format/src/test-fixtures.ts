/**
 * A session with three branches, a second root, and a compaction on each of two branches:
 *
 *   1 user ─ 2 model_change ─ 3 assistant(tc3) ─ 4 toolResult ─ 5 assistant ┬ 6 user ─ 7 assistant(m-b) ─ 8 compaction(kept 6) ─ 9 user
 *   │                                                                       └ 10 user ─ 11 thinking high ─ 12 assistant ─ 13 compaction(kept 10) ─ 14 assistant
 *   └ 15 branch_summary ─ 16 custom ─ 17 custom_message ─ 18 user ─ 19..22 labels
 *   23 user (a new root)
 */
import type { StoredRecord } from "./records.js";
import {
	assistant,
	branchSummary,
	compaction,
	custom,
	customMessage,
	label,
	modelChange,
	thinkingLevel,
	toolResult,
	user,
} from "./test-builders.js";

export const BRANCHED: StoredRecord[] = [
	user(1, "start"),
	modelChange(2, "p", "m-a"),
	assistant(3, "looking", { toolCalls: ["tc3"] }),
	toolResult(4, "tc3", "result 4"),
	assistant(5, "done 5"),
	user(6, "main 6"),
	assistant(7, "main 7", { provider: "p", model: "m-b" }),
	compaction(8, 6, "main summary"),
	user(9, "main 9"),
	user(10, "b 10", { parentSeq: 5 }),
	thinkingLevel(11, "high"),
	assistant(12, "b 12"),
	compaction(13, 10, "b summary"),
	assistant(14, "b 14"),
	branchSummary(15, 14, "came back from b", { parentSeq: 1 }),
	custom(16, "state", { secret: "never sent" }),
	customMessage(17, "note", "note 17"),
	user(18, "c 18"),
	label(19, 6, "first"),
	label(20, 6, "second"),
	label(21, 10, "bee"),
	label(22, 10, ""),
	user(23, "new root 23", { parentSeq: null }),
];
