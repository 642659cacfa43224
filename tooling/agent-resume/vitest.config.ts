import { packageTestConfig } from "../../tooling/vitest.shared.js";

export default packageTestConfig();
