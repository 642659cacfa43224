import { createRequire } from "node:module";

/** The version of this package, from its package.json. */
export const CLI_VERSION: string = (createRequire(import.meta.url)("../package.json") as { version: string }).version;
