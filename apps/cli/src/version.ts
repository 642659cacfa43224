import { createRequire } from "node:module";

/** Set by the bundler (build.mjs); the unbundled build reads package.json. */
declare const __AGENT_SESSIONS_VERSION__: string | undefined;

/** The version of this package. */
export const CLI_VERSION: string =
	typeof __AGENT_SESSIONS_VERSION__ === "string"
		? __AGENT_SESSIONS_VERSION__
		: (createRequire(import.meta.url)("../package.json") as { version: string }).version;
