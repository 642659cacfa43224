import { detectFormat } from "./detect-format.js";
import { invalidArgument, invalidSource, sourceLabel } from "./errors.js";
import { convertClaude } from "./formats/claude-import.js";
import { convertCodex } from "./formats/codex-import.js";
import { convertCopilot } from "./formats/copilot-import.js";
import { convertFern } from "./formats/fern-import.js";
import { convertGemini } from "./formats/gemini-import.js";
import { convertOpenCode } from "./formats/opencode-import.js";
import { convertPi } from "./formats/pi-import.js";
import { convertRfc0064 } from "./formats/rfc0064-import.js";
import {
	type ConvertedSession,
	type Converter,
	type ConvertOptions,
	type ImportFormat,
	SOURCE_FORMATS,
	type SourceFormat,
} from "./types.js";

/** The converter of each format. */
export const CONVERTERS: Readonly<Record<SourceFormat, Converter>> = {
	pi: convertPi,
	codex: convertCodex,
	claude: convertClaude,
	gemini: convertGemini,
	opencode: convertOpenCode,
	copilot: convertCopilot,
	rfc0064: convertRfc0064,
	fern: convertFern,
};

/**
 * Converts one source file's lines, detecting the format when `from` is "auto" (the default).
 * Throws AgentSessionError (INVALID_ARGUMENT) when the format is unknown or cannot be detected,
 * or when the lines are not a session of the format.
 */
export function convertSession(
	lines: readonly string[],
	options: ConvertOptions & { from?: ImportFormat } = {},
): ConvertedSession {
	const from = options.from ?? "auto";
	if (from !== "auto" && !SOURCE_FORMATS.includes(from)) {
		throw invalidArgument(`unknown format ${JSON.stringify(from)}; use one of auto, ${SOURCE_FORMATS.join(", ")}`);
	}
	const format = from === "auto" ? detectFormat(lines) : from;
	if (!format) {
		throw invalidSource(
			sourceLabel(options.sourcePath),
			`is not a session in a format this importer knows (${SOURCE_FORMATS.join(", ")})`,
			"Pass --from <format> if you know it, or check the file",
		);
	}
	return CONVERTERS[format](lines, options);
}
