import { loadConfig } from "@agent/session";
import { type AccessGuard, type AccessOverrides, accessSettings } from "./access.js";
import type { Log } from "./log.js";

/** Reads config.yaml again and puts its access settings in force; on failure logs why and keeps the old ones. */
export async function reloadConfig(context: {
	configHome: string | undefined;
	env: NodeJS.ProcessEnv;
	overrides: AccessOverrides;
	host: string;
	basePath: string;
	guard: AccessGuard;
	log: Log;
}): Promise<boolean> {
	const { configHome, log } = context;
	try {
		if (configHome === undefined)
			throw new Error("this server was given a runtime without a home, so it has no config.yaml to read");
		const config = await loadConfig(configHome, context.env);
		const settings = accessSettings(config.server, context.overrides, context.host);
		context.guard.update(settings);
		log("info", "config.reloaded", { users: settings.users.size });
		if (config.server.basePath !== context.basePath) {
			log("warn", "config.restart_needed", { key: "server.base_path", in_force: context.basePath || "/" });
		}
		return true;
	} catch (error) {
		log("error", "config.reload_failed", {
			reason: ((error as Error)?.message ?? String(error)).replace(/^(agent-sessions-server|@agent\/session): /, ""),
			kept: "the settings in force",
		});
		return false;
	}
}
