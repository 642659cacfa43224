/**
 * The server's log lines, written through one function so that a structured logger (levels,
 * JSON) can take its place in one module. One line per event: the level, a dotted event name,
 * then `key=value` fields (a value with spaces or quotes is JSON-quoted).
 */
export type LogLevel = "debug" | "info" | "warn" | "error";
export type LogFields = Record<string, string | number | boolean | undefined>;
export type Log = (level: LogLevel, event: string, fields?: LogFields) => void;

/** A Log that writes each event as one line to `write` (stderr by default in the server). */
export function lineLog(write: (line: string) => void): Log {
	return (level, event, fields = {}) => {
		const parts = [`agent-sessions-server: ${level} ${event}`];
		for (const [key, value] of Object.entries(fields)) {
			if (value === undefined) continue;
			const text = String(value);
			parts.push(`${key}=${/^[^\s"=]+$/.test(text) ? text : JSON.stringify(text)}`);
		}
		write(parts.join(" "));
	};
}
