import { fileURLToPath } from "node:url";
import { Child, type ChildOutcome, type StoreSpec } from "@agent/adapter-testing";

const SCRIPT = fileURLToPath(new URL("../test/child-run.mjs", import.meta.url));

export interface ChildTask {
	store: StoreSpec;
	sessionId: string;
	action: "run" | "pop" | "transaction";
	input?: string;
	/** Run under session.withLease(). */
	exclusive?: boolean;
	/** Print "waiting" at the model's answer (or before the pop) and go on at "go". */
	barrier?: boolean;
	args?: unknown;
	/** A transaction: print "waiting" once it is applied, and go on only at "go" (the test kills it there). */
	hold?: boolean;
}

export interface RunOutcome extends ChildOutcome {
	finalOutput?: string;
	popped?: unknown;
	items?: unknown[];
	/** The input of each of the child's model requests. */
	inputs?: unknown[];
}

/** test/child-run.mjs on the built package, in a process of its own. */
export function childRun(task: ChildTask): Child<RunOutcome> {
	return new Child<RunOutcome>(SCRIPT, task);
}
