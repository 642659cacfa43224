import { contentText, type SessionTree, type StoredRecord } from "@agent/session-format/reading";
import { preview } from "./format.js";
import { hasRow } from "./shown-records.js";

/** The records sharing `seq`'s parent (the roots when it has none), in seq order. */
export function siblingsOf(tree: SessionTree, seq: number): readonly number[] {
	const parent = tree.parentOf(seq);
	const siblings = parent === null ? tree.roots() : tree.children(parent);
	// Older pages load after newer ones, so the tree may have met siblings out of order.
	return siblings.length > 1 ? [...siblings].sort((a, b) => a - b) : siblings;
}

/** The newest leaf in the subtree under `seq` (the branch's tip to show when switching to it). */
export function latestLeafUnder(tree: SessionTree, seq: number): number {
	let best = seq;
	const stack = [seq];
	while (stack.length > 0) {
		const current = stack.pop() as number;
		const children = tree.children(current);
		if (children.length === 0 && current > best) best = current;
		stack.push(...children);
	}
	return best;
}

/** The last user message on the path to `leaf`, as a one-line label. */
export function leafLabel(tree: SessionTree, leaf: number): string {
	let seq: number | null = leaf;
	while (seq !== null) {
		const record: StoredRecord | undefined = tree.get(seq);
		if (!record) break;
		if (record.recordType === "message" && record.role === "user") return preview(contentText(record.content), 48);
		seq = tree.parentOf(seq);
	}
	return "(no messages)";
}

/**
 * Every branch tip worth choosing, newest first: each leaf, named by the nearest record at or
 * above it that is shown (a label or a name written after the last message is never a tip of
 * its own), one entry per shown record.
 */
export function branchTips(tree: SessionTree): Array<{ leaf: number; shown: number }> {
	const tips = new Map<number, number>();
	for (const leaf of tree.leaves().reverse()) {
		const shown = shownAt(tree, leaf);
		if (!tips.has(shown)) tips.set(shown, leaf);
	}
	return [...tips].map(([shown, leaf]) => ({ leaf, shown }));
}

/** The nearest record at or above `seq` that has a row in the transcript. */
export function shownAt(tree: SessionTree, seq: number): number {
	let current: number | null = seq;
	while (current !== null) {
		const record = tree.get(current);
		if (!record || hasRow(record)) return current;
		current = tree.parentOf(current);
	}
	return seq;
}

/** Whether `seq` is on the path to `leaf`. */
export function isOnPath(tree: SessionTree, leaf: number | null, seq: number): boolean {
	return leaf !== null && tree.path(leaf).some((record) => record.seq === seq);
}
