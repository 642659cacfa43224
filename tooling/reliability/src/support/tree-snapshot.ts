import { lstatSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";

/** Every path under `root` with its kind, size and mtime: two snapshots differ when anything was created, removed or written. */
export function snapshotTree(root: string, skip: (path: string) => boolean = () => false): Map<string, string> {
	const entries = new Map<string, string>();
	const walk = (dir: string) => {
		for (const name of readdirSync(dir)) {
			const path = join(dir, name);
			const rel = relative(root, path);
			if (skip(rel)) continue;
			const stat = lstatSync(path, { bigint: true });
			entries.set(rel, `${stat.isDirectory() ? "d" : "f"} ${stat.size} ${stat.mtimeNs}`);
			if (stat.isDirectory()) walk(path);
		}
	};
	walk(root);
	return entries;
}

/** What changed between two snapshots, as short lines. */
export function treeChanges(before: Map<string, string>, after: Map<string, string>): string[] {
	const changes: string[] = [];
	for (const [path, value] of after) {
		const old = before.get(path);
		if (old === undefined) changes.push(`+ ${path}`);
		else if (old !== value) changes.push(`~ ${path}`);
	}
	for (const path of before.keys()) if (!after.has(path)) changes.push(`- ${path}`);
	return changes;
}
