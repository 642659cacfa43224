import { AgentSessionError } from "@agent/session-format";
import { parse as parseYaml } from "yaml";
import { type AgentConfig, resolveConfig } from "./config.js";
import { expandConfigSecrets } from "./config-env.js";
import { agentConfigSchema } from "./config-schema.js";

/**
 * @agent/session/config: config.yaml's parser and schema. Apart from the root, because the YAML
 * parser and zod load with them; the runtime loads this module only when a config.yaml exists.
 */
export { agentConfigSchema } from "./config-schema.js";

/**
 * Parses config.yaml text; `source` names the file in errors. `${NAME}` in a secret (store,
 * server.token, server.metrics_token, server.users[].token) is replaced by the variable from `env` (expandConfigSecrets).
 */
export function parseConfig(text: string, source = "config.yaml", env: NodeJS.ProcessEnv = process.env): AgentConfig {
	let raw: unknown;
	try {
		raw = parseYaml(text);
	} catch (error) {
		throw new AgentSessionError(
			"INVALID_ARGUMENT",
			`@agent/session: ${source} is not valid YAML (${(error as Error).message}); fix the file or remove it to use the defaults`,
			{ cause: error },
		);
	}
	const result = agentConfigSchema.safeParse(expandConfigSecrets(raw ?? {}, source, env));
	if (!result.success) {
		const issue = result.error.issues[0];
		const where = issue && issue.path.length > 0 ? issue.path.join(".") : "the top level";
		throw new AgentSessionError(
			"INVALID_ARGUMENT",
			`@agent/session: ${source}: ${where}: ${issue?.message ?? "invalid"}; see the configuration section of the @agent/session README`,
			{ cause: result.error },
		);
	}
	return resolveConfig(result.data);
}
