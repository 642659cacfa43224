import { AgentSessionError, type SessionStore } from "@agent/session-format";
import { invalidArgument, PREFIX } from "../errors.js";
import { claudeExportLines } from "./claude-export.js";
import { type CodexExportOptions, codexExportLines } from "./codex-export.js";
import { htmlChunks } from "./html-export.js";
import { jsonlChunks } from "./jsonl-export.js";
import { markdownChunks } from "./markdown-export.js";
import { type PiExportOptions, piExportLines } from "./pi-export.js";
import type { ExportInfo, RecordSource } from "./record-source.js";

export type ExportFormat = "md" | "html" | "jsonl" | "pi" | "claude" | "codex";

export const EXPORT_FORMATS: readonly ExportFormat[] = ["md", "html", "jsonl", "pi", "claude", "codex"];

/** Options of the pi, Claude Code and Codex exports (each reads the ones it knows). */
export type ExportOptions = PiExportOptions & CodexExportOptions;

/** A session's records in an export format, as chunks of text (never the whole output as one string). */
export function exportRecords(
	source: RecordSource,
	info: ExportInfo,
	format: ExportFormat,
	options: ExportOptions = {},
): AsyncIterable<string> {
	switch (format) {
		case "md":
			return markdownChunks(source, info);
		case "html":
			return htmlChunks(source, info);
		case "jsonl":
			return jsonlChunks(source);
		case "pi":
			return piExportLines(source, info, options);
		case "claude":
			return claudeExportLines(source, info, options);
		case "codex":
			return codexExportLines(source, info, options);
		default:
			throw invalidArgument(`unknown export format ${JSON.stringify(format)}; use one of ${EXPORT_FORMATS.join(", ")}`);
	}
}

/**
 * A stored session in an export format, streamed from the store as chunks of text. Throws
 * SessionNotFoundError for an unknown id when iteration starts.
 */
export async function* exportSession(
	store: SessionStore,
	id: string,
	format: ExportFormat,
	options: ExportOptions = {},
): AsyncGenerator<string> {
	if (!EXPORT_FORMATS.includes(format)) {
		throw invalidArgument(`unknown export format ${JSON.stringify(format)}; use one of ${EXPORT_FORMATS.join(", ")}`);
	}
	const metadata = await store.metadata(id);
	yield* exportRecords(() => store.read(id), metadata, format, options);
}

/** The minimal writable stream exportSession can write to (a file stream, process.stdout, an HTTP response). */
export interface ChunkSink {
	write(chunk: string): boolean;
	once(event: "drain" | "error" | "close", listener: (...args: unknown[]) => void): unknown;
	off?(event: string, listener: (...args: unknown[]) => void): unknown;
}

/**
 * Writes a stored session in an export format to a stream, waiting for "drain" when the stream
 * asks to (a large session never sits in memory). Does not end the stream: the caller closes
 * it (so process.stdout can be used). Rejects when the stream fails or closes early.
 */
export async function writeSessionExport(
	store: SessionStore,
	id: string,
	format: ExportFormat,
	sink: ChunkSink,
	options: ExportOptions = {},
): Promise<void> {
	for await (const chunk of exportSession(store, id, format, options)) {
		if (!sink.write(chunk)) await drained(sink);
	}
}

function drained(sink: ChunkSink): Promise<void> {
	return new Promise((resolve, reject) => {
		const cleanup = () => {
			sink.off?.("drain", onDrain);
			sink.off?.("error", onError);
			sink.off?.("close", onClose);
		};
		const onDrain = () => {
			cleanup();
			resolve();
		};
		const onError = (error: unknown) => {
			cleanup();
			reject(error);
		};
		const onClose = () => {
			cleanup();
			reject(
				new AgentSessionError("STORAGE_FAILURE", `${PREFIX} the output stream closed before the export was written`),
			);
		};
		sink.once("drain", onDrain);
		sink.once("error", onError);
		sink.once("close", onClose);
	});
}
