export { type PiExportOptions, piEntryId, piExportLines } from "./export/pi-export.js";
export { type ExportInfo, type RecordSource, recordsFrom } from "./export/record-source.js";
export { convertPi, PI_HEADER_TYPE } from "./formats/pi-import.js";
export { bashExecutionText, PI_BASH_TYPE } from "./formats/pi-messages.js";
export { LEAF_MARKER_TYPE } from "./record-list.js";
export {
	type ConvertedSession,
	type Converter,
	type ConvertOptions,
	type ImportFormat,
	SOURCE_FORMATS,
	type SourceFormat,
} from "./types.js";
