import { packageTestConfig } from "../../tooling/vitest.shared.js";

/** The web page benchmark in Chromium: `pnpm bench:web` (writes docs/web-benchmarks.md). Not part of `pnpm test`. */
export default packageTestConfig({ include: ["bench/**/*.test.ts"], testTimeout: 1_800_000 });
