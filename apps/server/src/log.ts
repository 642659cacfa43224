/**
 * The server's log: one line per event, JSON (`--log-format json`, AGENT_LOG_FORMAT=json) for a
 * log pipeline, or text for a person at a terminal: `2026-05-01T09:00:00.000Z INFO  request
 * method=GET status=200 …`. Every line has a time, a level and an event name; the fields follow.
 *
 * Written here rather than with pino: the server writes a few lines per request and per turn, in
 * two fixed shapes, synchronously (a line written just before `process.exit` is never lost), and
 * pino's text output needs its pretty-printer transport, a worker thread and another package.
 */

export const LOG_LEVELS = ["debug", "info", "warn", "error"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export const LOG_FORMATS = ["text", "json"] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/** A line's fields; undefined ones are left out. */
export type LogFields = Record<string, string | number | boolean | null | undefined>;

/** Writes one line: `log("warn", "model.failed", { sessionId, error })`. */
export type Log = (level: LogLevel, event: string, fields?: LogFields) => void;

export const LOG_FORMAT_ENV = "AGENT_LOG_FORMAT";
export const LOG_LEVEL_ENV = "AGENT_LOG_LEVEL";

export interface LoggerOptions {
	format?: LogFormat;
	/** Lines below it are dropped (default info). */
	level?: LogLevel;
	/** Where each line goes, without its newline; default stderr. */
	write?: (line: string) => void;
	now?: () => Date;
}

export function createLogger(options: LoggerOptions = {}): Log {
	const format = options.format ?? "text";
	const threshold = LOG_LEVELS.indexOf(options.level ?? "info");
	const write = options.write ?? ((line: string) => process.stderr.write(`${line}\n`));
	const now = options.now ?? (() => new Date());
	return (level, event, fields = {}) => {
		if (LOG_LEVELS.indexOf(level) < threshold) return;
		const time = now().toISOString();
		write(format === "json" ? jsonLine(time, level, event, fields) : textLine(time, level, event, fields));
	};
}

/** The format and level asked for by the environment, checked: a typo names the variable and the choices. */
export function logSettingsFromEnv(env: NodeJS.ProcessEnv): { format?: LogFormat; level?: LogLevel } {
	const format = env[LOG_FORMAT_ENV];
	const level = env[LOG_LEVEL_ENV];
	return {
		...(format ? { format: checkChoice(format, LOG_FORMATS, LOG_FORMAT_ENV) } : {}),
		...(level ? { level: checkChoice(level, LOG_LEVELS, LOG_LEVEL_ENV) } : {}),
	};
}

/** `value` when it is one of `choices`; else an Error that names `where` and the choices. */
export function checkChoice<T extends string>(value: string, choices: readonly T[], where: string): T {
	if ((choices as readonly string[]).includes(value)) return value as T;
	throw new Error(`${where} must be one of ${choices.join(", ")}, not ${JSON.stringify(value)}`);
}

function jsonLine(time: string, level: LogLevel, event: string, fields: LogFields): string {
	const line: Record<string, unknown> = { time, level, event };
	for (const [key, value] of Object.entries(fields)) {
		if (value !== undefined && !(key in line)) line[key] = value;
	}
	return JSON.stringify(line);
}

function textLine(time: string, level: LogLevel, event: string, fields: LogFields): string {
	let line = `${time} ${level.toUpperCase().padEnd(5)} ${event}`;
	for (const [key, value] of Object.entries(fields)) {
		if (value === undefined) continue;
		line += ` ${key}=${textValue(value)}`;
	}
	return line;
}

/** Bare when it reads unambiguously (no spaces, quotes or `=`), else JSON-quoted: one line, always. */
function textValue(value: string | number | boolean | null): string {
	if (typeof value !== "string") return String(value);
	return value.length > 0 && /^[^\s"'=\\]+$/.test(value) ? value : JSON.stringify(value);
}

/** An error as a log field: its code (when it has one) and message, on one line. */
export function errorFields(error: unknown): { errorCode?: string; error: string } {
	const code = (error as { code?: unknown } | null)?.code;
	const message = error instanceof Error ? error.message : String(error);
	return { ...(typeof code === "string" ? { errorCode: code } : {}), error: message };
}
