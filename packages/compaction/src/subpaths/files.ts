// @agent/compaction/files: the cumulative file lists a summary carries (S7.15, S7.16): which tool
// calls read or modify which files, and the tags appended to a summary. DEFAULT_FILE_TOOLS is what
// prepareCompaction's `fileOperations.tools` extends.
export {
	appendFileOperations,
	DEFAULT_FILE_TOOLS,
	DEFAULT_PATH_ARGUMENTS,
	extractFileOperations,
	type FileAccess,
	type FileOperationMessage,
	type FileOperationOptions,
	type FileOperations,
	type FileToolMap,
	formatFileOperations,
	mergeFileOperations,
	stripFileOperations,
} from "../file-operations.js";
