import fs from "node:fs/promises";
import path from "node:path";
import { AgentSessionError } from "@agent/session-format/reading";
import { type AgentConfig, resolveConfig } from "./config.js";

/**
 * Reads `<home>/config.yaml`; a missing file means the defaults. `${NAME}` in a secret is taken
 * from `env` (see parseConfig).
 */
export async function loadConfig(home: string, env: NodeJS.ProcessEnv = process.env): Promise<AgentConfig> {
	const file = path.join(home, "config.yaml");
	let text: string;
	try {
		text = await fs.readFile(file, "utf8");
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return resolveConfig();
		throw new AgentSessionError("STORAGE_FAILURE", `@agent/session: cannot read ${file}: ${(error as Error).message}`, {
			cause: error,
		});
	}
	// The YAML parser and the file's schema are loaded only when there is a file to parse.
	const { parseConfig } = await import("./config-file.js");
	return parseConfig(text, file, env);
}
