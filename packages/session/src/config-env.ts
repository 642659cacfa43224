import { AgentSessionError } from "@agent/session-format/reading";

/** `${NAME}`: an environment variable's name as a shell writes it. */
const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * `text` with every `${NAME}` replaced by that environment variable, so that a secret (a token, a
 * database password) stays out of config.yaml: `token: ${ALICE_TOKEN}`. A variable that is unset or
 * empty is an error naming the key (`where`) and the variable: taken literally, the reference
 * would become the secret. Anything else, `$` and `{` included, is kept as written.
 */
export function expandEnv(text: string, where: string, env: NodeJS.ProcessEnv): string {
	return text.replace(REFERENCE, (_reference, name: string) => {
		const value = env[name];
		if (value === undefined || value.length === 0) {
			throw new AgentSessionError(
				"INVALID_ARGUMENT",
				`@agent/session: ${where} refers to the environment variable ${name}, which is ${value === undefined ? "not set" : "empty"}; set it, or write the value itself`,
			);
		}
		return value;
	});
}

/**
 * The keys of config.yaml that hold secrets, expanded with `expandEnv` before the file is checked
 * (a token's length is the expanded one's): `store` (a database URL may hold a password),
 * `server.token`, `server.metrics_token` and each `server.users[].token`. `source` names the file in errors.
 */
export function expandConfigSecrets(raw: unknown, source: string, env: NodeJS.ProcessEnv): unknown {
	if (!isObject(raw)) return raw;
	const expand = (value: unknown, key: string) =>
		typeof value === "string" ? expandEnv(value, `${source}: ${key}`, env) : value;
	const out: Record<string, unknown> = { ...raw };
	if ("store" in out) out.store = expand(out.store, "store");
	if (isObject(out.server)) {
		const server: Record<string, unknown> = { ...out.server };
		if ("token" in server) server.token = expand(server.token, "server.token");
		if ("metrics_token" in server) server.metrics_token = expand(server.metrics_token, "server.metrics_token");
		if (Array.isArray(server.users)) {
			server.users = server.users.map((user, index) =>
				isObject(user) && "token" in user
					? { ...user, token: expand(user.token, `server.users.${index}.token`) }
					: user,
			);
		}
		out.server = server;
	}
	return out;
}

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}
