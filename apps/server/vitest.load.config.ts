import { packageTestConfig } from "../../tooling/vitest.shared.js";

/** The bounded load test on loopback: `pnpm load` (writes docs/server-load.md) or `pnpm test:reliability`. */
export default packageTestConfig({ include: ["load/**/*.test.ts"], testTimeout: 600_000 });
