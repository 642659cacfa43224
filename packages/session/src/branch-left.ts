import { abandonedBranch, type BranchSummaryRecordInput, summarizeBranch } from "@agent/compaction";
import type { SessionStore } from "@agent/session-format/reading";
import type { ResolvedModel } from "./model-names.js";

/**
 * The branch_summary of what moving a session's leaf to `atSeq` leaves behind (pi's branch
 * summaries): the records of the active branch past the branch point, summarized. Undefined
 * when nothing with a message is left (the leaf is already there, or only moves down its path).
 */
export async function summaryOfBranchLeft(
	store: SessionStore,
	sessionId: string,
	atSeq: number,
	summarizer: ResolvedModel,
	signal?: AbortSignal,
): Promise<BranchSummaryRecordInput | undefined> {
	const from = await store.open(sessionId);
	if (from.context.leafSeq === atSeq) return undefined;
	const to = await store.open(sessionId, { leafSeq: atSeq });
	const left = abandonedBranch(from.path, to.path);
	if (left.length === 0) return undefined;
	return summarizeBranch(left, {
		model: summarizer.model,
		...(summarizer.apiKey ? { completeOptions: { apiKey: summarizer.apiKey } } : {}),
		...(signal ? { signal } : {}),
	});
}
