const SHOWN_LINES = 5;

interface Group {
	message: string;
	lines: number[];
	count: number;
}

/**
 * Collects what did not map one to one. The same message on many lines is reported once,
 * with its count and the first line numbers, so a large file yields a readable list.
 */
export class Warnings {
	private readonly groups = new Map<string, Group>();

	/** Notes `message` (what happened and what became of it), at a 1-based source line when known. */
	add(message: string, line?: number): void {
		let group = this.groups.get(message);
		if (!group) {
			group = { message, lines: [], count: 0 };
			this.groups.set(message, group);
		}
		group.count++;
		if (line !== undefined && group.lines.length < SHOWN_LINES) group.lines.push(line);
	}

	get size(): number {
		return this.groups.size;
	}

	/** The warnings in the order first seen. */
	list(): string[] {
		const out: string[] = [];
		for (const group of this.groups.values()) out.push(render(group));
		return out;
	}
}

function render(group: Group): string {
	if (group.count === 1) return group.lines.length === 1 ? `line ${group.lines[0]}: ${group.message}` : group.message;
	if (group.lines.length === 0) return `${group.message} (${group.count} times)`;
	const more = group.count > group.lines.length ? ", …" : "";
	return `${group.message} (${group.count} times; lines ${group.lines.join(", ")}${more})`;
}
