import { packageTestConfig } from "../../tooling/vitest.shared.js";

// The page's pure parts (its live reducer, say) are tested beside them in web/src.
export default packageTestConfig({ include: ["src/**/*.test.ts", "test/**/*.test.ts", "web/src/**/*.test.ts"] });
