/** The styles the CLI uses. */
export type Style = "bold" | "dim" | "red" | "green" | "yellow" | "blue" | "magenta" | "cyan" | "gray";

const CODES: Record<Style, readonly [number, number]> = {
	bold: [1, 22],
	dim: [2, 22],
	red: [31, 39],
	green: [32, 39],
	yellow: [33, 39],
	blue: [34, 39],
	magenta: [35, 39],
	cyan: [36, 39],
	gray: [90, 39],
};

/** Applies a style to text, or returns the text unchanged when colors are off. */
export type Paint = (style: Style, text: string) => string;

/**
 * Whether to color a stream: never when NO_COLOR is set to anything non-empty (no-color.org);
 * otherwise when FORCE_COLOR asks for it, else only when the stream is a terminal.
 */
export function colorsEnabled(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv): boolean {
	if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
	if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== "")
		return env.FORCE_COLOR !== "0" && env.FORCE_COLOR !== "false";
	return stream.isTTY === true;
}

export function painter(enabled: boolean): Paint {
	if (!enabled) return (_style, text) => text;
	return (style, text) => {
		const [open, close] = CODES[style];
		return `\u001b[${open}m${text}\u001b[${close}m`;
	};
}

const ANSI = /\u001b\[[0-9;]*m/g;

/** Text without ANSI color codes (to measure what a terminal shows). */
export function stripAnsi(text: string): string {
	return text.replace(ANSI, "");
}
