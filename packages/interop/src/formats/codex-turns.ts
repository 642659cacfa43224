import type { RecordInput } from "@agent/session-format";
import type { RecordList } from "../record-list.js";

/** User messages Codex adds itself (the environment, AGENTS.md): they start no turn, so a rollback does not count them. */
const CONTEXTUAL =
	/^\s*(<environment_context>|<user_instructions>|<permissions instructions>|# AGENTS\.md instructions)/;

/**
 * The user turns on the conversation read so far, for `thread_rolled_back`: Codex drops the last
 * n user turns (a user message or a message from another agent, and all after it) from the
 * history it sends. Here the records stay; what follows continues on a branch from before the
 * first dropped turn, so the active path is the history Codex keeps.
 */
export class CodexTurns {
	private readonly starts: number[] = [];

	constructor(private readonly list: RecordList) {}

	/** Notes a record just added at `seq`: a user message (or another agent's message) starts a turn. */
	note(seq: number, record: RecordInput): void {
		const starts =
			(record.recordType === "message" && record.role === "user" && !isContextual(record)) ||
			(record.recordType === "custom_message" && record.customType.startsWith("codex:inter_agent"));
		if (starts) this.starts.push(seq);
	}

	/** Drops the last `turns` turns: the next record continues from before the first of them. Returns how many were dropped. */
	rollBack(turns: number): number {
		if (!Number.isInteger(turns) || turns <= 0 || this.starts.length === 0) return 0;
		const index = Math.max(0, this.starts.length - turns);
		const first = this.starts[index] as number;
		const record = this.list.get(first);
		const parent = record?.parentSeq === undefined ? first - 1 : record.parentSeq;
		this.list.branchFrom(parent !== null && parent < 1 ? null : parent);
		const dropped = this.starts.length - index;
		this.starts.length = index;
		return dropped;
	}
}

function isContextual(record: RecordInput): boolean {
	if (record.recordType !== "message") return false;
	const first = record.content[0];
	return first?.type === "text" && CONTEXTUAL.test(first.text);
}
