import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import type { StoreSpec } from "./stores.js";

const require = createRequire(import.meta.url);
const manifest = require("agent-sessions/package.json") as { bin: Record<string, string> };
const CLI = join(dirname(require.resolve("agent-sessions/package.json")), manifest.bin["agent-sessions"] as string);

/** Runs the operators' CLI (the built bin of apps/cli) on the given store; resolves with what it printed. */
export async function agentSessions(store: StoreSpec, args: string[]): Promise<string> {
	const where = store.kind === "file" ? ["--home", store.home] : ["--store", store.url];
	const { stdout } = await promisify(execFile)(process.execPath, [CLI, ...where, ...args], {
		env: { ...process.env, NO_COLOR: "1" },
	});
	return stdout;
}
