import { packageTestConfig } from "../../tooling/vitest.shared.js";

// The end-to-end tests run the built binary as child processes: give them room on a busy machine.
export default packageTestConfig({ testTimeout: 120_000 });
