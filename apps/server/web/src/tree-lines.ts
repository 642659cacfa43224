import type { SessionTree, StoredRecord } from "@agent/session-format/reading";
import { hasRow } from "./shown-records.js";

/** One line of the tree: a record and how deep it sits (one level per branch point above it). */
export interface TreeLine {
	record: StoredRecord;
	depth: number;
	/** The first record of a branch (a child of a branch point). */
	branchStart: boolean;
}

/**
 * The records of every branch in depth-first order, each branch indented under its branch point
 * (pi's /tree). Records without a row of their own (labels, names, extension state) are not
 * lines, so they are never shown as branch tips.
 */
export function treeLines(tree: SessionTree): TreeLine[] {
	const lines: TreeLine[] = [];
	const stack: Array<{ seq: number; depth: number; branchStart: boolean }> = [];
	const pushChildren = (children: readonly number[], depth: number) => {
		const sorted = [...children].sort((a, b) => b - a);
		const split = sorted.length > 1;
		for (const seq of sorted) stack.push({ seq, depth: split ? depth + 1 : depth, branchStart: split });
	};
	pushChildren(tree.roots(), -1);
	for (const start of stack) if (start.depth < 0) start.depth = 0;
	while (stack.length > 0) {
		const { seq, depth, branchStart } = stack.pop() as { seq: number; depth: number; branchStart: boolean };
		const record = tree.get(seq);
		if (!record) continue;
		if (hasRow(record)) lines.push({ record, depth, branchStart });
		pushChildren(tree.children(seq), depth);
	}
	return lines;
}
