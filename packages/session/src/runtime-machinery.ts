import { summaryOfBranchLeft } from "./branch-left.js";
import { CompactionRuns } from "./compaction-runs.js";
import { previewCompaction } from "./plan-compaction.js";
import type { RuntimeCore } from "./runtime-options.js";
import type { TurnControls } from "./turn-controls.js";
import { TurnExecution } from "./turn-execution.js";

/**
 * What runs turns and compactions, loaded by the runtime when the first one is asked for: a
 * process that opens the runtime to list, read or append never loads the turn code and the
 * compaction package behind it.
 */
export interface RuntimeMachinery {
	turns: TurnExecution;
	compactions: CompactionRuns;
	previewCompaction: typeof previewCompaction;
	summaryOfBranchLeft: typeof summaryOfBranchLeft;
}

export function runtimeMachinery(core: RuntimeCore, controls: TurnControls): RuntimeMachinery {
	const compactions = new CompactionRuns(core);
	return {
		turns: new TurnExecution(core, compactions, controls),
		compactions,
		previewCompaction,
		summaryOfBranchLeft,
	};
}
