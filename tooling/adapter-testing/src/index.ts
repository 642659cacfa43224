export { Child, type ChildOutcome } from "./child.js";
export { agentSessions } from "./cli.js";
export { onEveryStore, type StoreSpec, type TestStore } from "./stores.js";
