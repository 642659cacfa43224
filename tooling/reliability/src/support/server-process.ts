import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { Child } from "./child.js";

export interface RunningServer {
	url: string;
	child: Child;
	stop(): Promise<void>;
}

/** The built bin of agent-sessions-server (apps/server/dist/bin.js). */
export function serverBin(): string {
	const packageJson = createRequire(import.meta.url).resolve("agent-sessions-server/package.json");
	return join(dirname(packageJson), "dist", "bin.js");
}

/**
 * Starts the real server on a free port over `home`, with no provider keys in its environment
 * (so sessions use the offline demo model), and waits for its `listening on` line. `extra` adds
 * arguments and environment variables (e.g. a slower demo model).
 */
export async function startServer(
	home: string,
	extra: { args?: string[]; env?: NodeJS.ProcessEnv } = {},
): Promise<RunningServer> {
	const bin = serverBin();
	if (!existsSync(bin)) throw new Error(`${bin} is missing: build the server first (pnpm build)`);
	const env: NodeJS.ProcessEnv = {};
	for (const [key, value] of Object.entries(process.env)) {
		if (!/_API_KEY$|_TOKEN$|^AGENT_/.test(key)) env[key] = value;
	}
	Object.assign(env, extra.env);
	const child = Child.node([bin, "--home", home, "--port", "0", "--host", "127.0.0.1", ...(extra.args ?? [])], {
		env,
	});
	const line = await child.waitForLine((text) => text.startsWith("listening on "), 30_000);
	const url = line.slice("listening on ".length).trim();
	return {
		url,
		child,
		stop: async () => {
			child.kill("SIGTERM");
			await child.finish(10_000);
		},
	};
}
