import type { RecordInput } from "@agent/session-format";

/** The session formats this package reads. */
export type SourceFormat = "pi" | "codex" | "claude" | "gemini" | "opencode" | "copilot" | "rfc0064" | "fern";

/** What `--from` accepts: a format, or `auto` to detect it from the content. */
export type ImportFormat = "auto" | SourceFormat;

export const SOURCE_FORMATS: readonly SourceFormat[] = [
	"pi",
	"codex",
	"claude",
	"gemini",
	"opencode",
	"copilot",
	"rfc0064",
	"fern",
];

/** Context a converter may use besides the lines; converters never touch the disk themselves. */
export interface ConvertOptions {
	/** The source's path: named in errors and warnings, and a fallback for ids (Claude Code file names, fern directories). */
	sourcePath?: string;
	/** The parsed `metadata.json` beside a fern `session.jsonl`, when there is one. */
	metadata?: unknown;
}

/**
 * One source session converted to our records. `records` are in order and their seqs are
 * 1..n in that order, so parentSeq, firstKeptSeq, targetSeq and fromSeq refer to positions in it.
 * The active leaf is the last record.
 */
export interface ConvertedSession {
	format: SourceFormat;
	/** The source's own session id: imports are keyed by (format, sourceId). */
	sourceId: string;
	createdAt?: string;
	name?: string;
	/** "provider/model-id" */
	model?: string;
	cwd?: string;
	/** An identity key (fern channel_user, rfc-0064 agent/sender). */
	identityKey?: string;
	/** A sub-agent's session: the source id of the session that spawned it (in the same format). */
	parentSourceId?: string;
	/** Accumulated active time (rfc-0064 uptime_secs). */
	uptimeSeconds?: number;
	records: RecordInput[];
	/** Everything that did not map one to one, said once per kind with the lines it happened on. */
	warnings: string[];
}

/** A converter: the lines of one source file (without newlines) to one session. */
export type Converter = (lines: readonly string[], options?: ConvertOptions) => ConvertedSession;
