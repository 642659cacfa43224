import type { Contender } from "./interleave.js";
import type { Plan } from "./plan.js";
import type { Row } from "./row.js";

export const IMPORT_SECTION = "Cold import, whole process (floor: node -e 0)";

/** The packages whose cold import is measured; the runtime's has a goal (goals.ts). */
const IMPORTED = ["@agent/session", "@agent/session-fs", "@agent/session-format"] as const;

type Compare = (ours?: Contender, pi?: Contender, floor?: Contender) => Promise<Pick<Row, "ours" | "pi" | "floor">>;

/**
 * `node -e "await import(<package>)"`, start to exit, beside a bare `node -e 0`: what a program
 * pays for putting the package under its agent before it does anything. The runtime must not
 * load the LLM stack, PostgreSQL's driver or the YAML parser until it needs them.
 */
export async function importRows(plan: Plan, compare: Compare, done: (row: Row) => void): Promise<void> {
	// CPU time comes in 10 ms clock ticks: more runs than the fast cases, for a mean that means something.
	const runs = Math.max(plan.runs.fast, 12) * 2;
	const floor: Contender = { name: "cli-run", params: { args: ["-e", "0"], runs } };
	for (const name of IMPORTED) {
		const url = import.meta.resolve(name);
		const ours: Contender = {
			name: "cli-run",
			params: { args: ["--input-type=module", "-e", `await import(${JSON.stringify(url)})`], runs },
		};
		done({ section: IMPORT_SECTION, label: `import("${name}")`, ...(await compare(ours, undefined, floor)) });
	}
}
