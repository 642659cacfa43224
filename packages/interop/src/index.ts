export { CONVERTERS, convertSession } from "./convert.js";
export { detectFormat } from "./detect-format.js";
export { type AgentTarget, carriedContent } from "./export/agent-carry.js";
export { type AgentExportOptions, CLAUDE_CODE_VERSION, claudeExportLines } from "./export/claude-export.js";
export { CODEX_VERSION, type CodexExportOptions, codexExportLines } from "./export/codex-export.js";
export {
	type ChunkSink,
	EXPORT_FORMATS,
	type ExportFormat,
	type ExportOptions,
	exportRecords,
	exportSession,
	writeSessionExport,
} from "./export/export-session.js";
export {
	OPAQUE_CUSTOM_TYPE,
	type PiExportOptions,
	piExportLines,
	piSessionIdOf,
} from "./export/pi-export.js";
export { type ExportInfo, type RecordSource, recordsFrom } from "./export/record-source.js";
export { claudeSessionPath, codexRolloutPath, resumeHint } from "./export/resume-paths.js";
export { convertClaude } from "./formats/claude-import.js";
export { convertCodex } from "./formats/codex-import.js";
export { convertCopilot } from "./formats/copilot-import.js";
export { convertFern } from "./formats/fern-import.js";
export { convertGemini } from "./formats/gemini-import.js";
export { convertOpenCode, convertOpenCodeSession, type OpenCodeSession } from "./formats/opencode-import.js";
export { convertPi, PI_HEADER_TYPE } from "./formats/pi-import.js";
export { PI_BASH_TYPE } from "./formats/pi-messages.js";
export { convertRfc0064 } from "./formats/rfc0064-import.js";
export { type ImportOptions, type ImportResult, importPaths } from "./import/import-paths.js";
export { IMPORT_BATCH, type ImportStatus } from "./import/import-session.js";
export { LEAF_MARKER_TYPE } from "./record-list.js";
export {
	type ConvertedSession,
	type Converter,
	type ConvertOptions,
	type ImportFormat,
	SOURCE_FORMATS,
	type SourceFormat,
} from "./types.js";
