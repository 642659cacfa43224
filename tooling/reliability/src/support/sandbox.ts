import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A fresh directory for one case: the store's home lives inside it, next to whatever the case plants around it. */
export interface Sandbox {
	readonly root: string;
	readonly home: string;
	remove(): void;
}

export function makeSandbox(label: string): Sandbox {
	const root = mkdtempSync(join(process.env.RELIABILITY_TMP ?? tmpdir(), `reliability-${label}-`));
	const home = join(root, "home");
	mkdirSync(home);
	return {
		root,
		home,
		remove: () => {
			if (process.env.RELIABILITY_KEEP) return;
			rmSync(root, { recursive: true, force: true });
		},
	};
}
