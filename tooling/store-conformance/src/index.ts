export { runStoreConformance } from "./conformance.js";
export { describeDifferential, type MakeStorePair, propertyRuns, type StorePair } from "./differential.js";
export type { StepClock } from "./differential-run.js";
export {
	assistant,
	collect,
	compaction,
	custom,
	expectCode,
	type MakeStore,
	readAllRecords,
	type StoreHandle,
	textOf,
	toolResult,
	user,
} from "./fixtures.js";
export { BAD_IDS } from "./ids.js";
export { exitWithin, runStoreScript, type StoreScript } from "./store-script.js";
