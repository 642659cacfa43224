import type { SessionTree, StoredRecord } from "@agent/session-format/reading";
import type { Paint } from "../io/colors.js";
import { recordGist, recordKind } from "./records.js";

export interface TreeView {
	tree: SessionTree;
	/** The active leaf; its path is highlighted. */
	leafSeq: number | null;
	paint: Paint;
}

/**
 * Draws a session's tree. A chain of records with one child each stays in one column; where a
 * record has several children, each child's branch is drawn below it with ├─ / └─ connectors.
 * Labels show as [label], compactions with what they kept, the active leaf with "◀ active".
 * Side records (names, labels, leaf moves, archive changes, turns) belong to no branch and are
 * not drawn as nodes.
 */
export function renderTree(view: TreeView): string[] {
	const { tree, paint } = view;
	// A side record (a label, a name, a leaf move) stands for the leaf it belongs to.
	const leafSeq = tree.resolve(view.leafSeq);
	const activePath = new Set(leafSeq === null ? [] : tree.path(leafSeq).map((record) => record.seq));
	const labels = tree.labels();
	const lines: string[] = [];
	// Work items: a branch to draw, starting at `seq`, with the prefix of its first line and the rest.
	const stack: Array<{ seq: number; first: string; rest: string }> = [];
	const roots = [...tree.roots(), ...orphans(tree)];
	for (let i = roots.length - 1; i >= 0; i--) stack.push({ seq: roots[i] as number, first: "", rest: "" });
	while (stack.length > 0) {
		const item = stack.pop() as { seq: number; first: string; rest: string };
		let seq: number | undefined = item.seq;
		let prefix = item.first;
		while (seq !== undefined) {
			const record = tree.get(seq) as StoredRecord;
			lines.push(prefix + nodeText(record, activePath.has(seq), seq === leafSeq, labels.get(seq), paint));
			prefix = item.rest;
			const children = tree.children(seq);
			if (children.length === 1) {
				seq = children[0];
				continue;
			}
			for (let c = children.length - 1; c >= 0; c--) {
				const last = c === children.length - 1;
				stack.push({
					seq: children[c] as number,
					first: item.rest + paint("gray", last ? "└─ " : "├─ "),
					rest: item.rest + paint("gray", last ? "   " : "│  "),
				});
			}
			seq = undefined;
		}
	}
	return lines;
}

/** Records whose parent is missing (a skipped corrupt line): drawn as extra roots so nothing is hidden. */
function orphans(tree: SessionTree): number[] {
	return tree
		.danglingRecords()
		.map((entry) => entry.seq)
		.filter((seq) => !tree.isSide(seq));
}

function nodeText(
	record: StoredRecord,
	onActivePath: boolean,
	isLeaf: boolean,
	label: string | undefined,
	paint: Paint,
): string {
	const marker = onActivePath ? "*" : " ";
	const seq = paint(onActivePath ? "bold" : "dim", `${marker}#${record.seq}`);
	const kind =
		record.recordType === "compaction"
			? paint("magenta", "⟲ compaction")
			: paint(kindColor(record), recordKind(record));
	const parts = [seq, kind, recordGist(record, 60)];
	if (label) parts.push(paint("yellow", `[${label}]`));
	if (isLeaf) parts.push(paint("green", "◀ active"));
	return parts.join(" ");
}

function kindColor(record: StoredRecord): "cyan" | "green" | "yellow" | "blue" | "gray" {
	if (record.recordType === "message")
		return record.role === "user" ? "cyan" : record.role === "assistant" ? "green" : "yellow";
	if (record.recordType === "label" || record.recordType === "session_info") return "blue";
	return "gray";
}
