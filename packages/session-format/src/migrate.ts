import { InvalidRecordError } from "./errors.js";
import { CURRENT_SCHEMA_VERSION } from "./record-kinds.js";

/**
 * Upgrades of older record versions, applied in memory on read; the file is never rewritten.
 * `UPGRADERS[n]` turns a version-n object into a version-(n+1) object. Each works on a copy.
 *
 * Version 0 is the legacy, pre-spec shape: no `schemaVersion`, `content` possibly a bare
 * string, and the old tool names `read_file`, `write_file`, `list_directory`.
 */
const UPGRADERS: Record<number, (record: Record<string, unknown>) => Record<string, unknown>> = {
	0: upgradeV0ToV1,
};

/** The tool names older records used, and the names they map to. */
export const LEGACY_TOOL_NAMES: Readonly<Record<string, string>> = {
	read_file: "read",
	write_file: "write",
	list_directory: "ls",
};

/** Upgrades `record` (of `fromVersion`) to the current version; returns a new object. */
export function migrateRecord(record: Record<string, unknown>, fromVersion: number): Record<string, unknown> {
	let current = record;
	for (let version = fromVersion; version < CURRENT_SCHEMA_VERSION; version++) {
		const upgrade = UPGRADERS[version];
		if (!upgrade) {
			throw new InvalidRecordError(
				`@agent/session-format: there is no upgrader from schemaVersion ${version}; versions 0 to ${CURRENT_SCHEMA_VERSION} can be read`,
				{ path: "schemaVersion" },
			);
		}
		current = upgrade(current);
	}
	return current;
}

function upgradeV0ToV1(record: Record<string, unknown>): Record<string, unknown> {
	const next: Record<string, unknown> = { ...record, schemaVersion: 1 };
	if (typeof next.content === "string") next.content = [{ type: "text", text: next.content }];
	if (Array.isArray(next.content)) {
		next.content = next.content.map((block: unknown) => {
			if (!isObject(block) || block.type !== "toolCall" || typeof block.name !== "string") return block;
			const renamed = LEGACY_TOOL_NAMES[block.name];
			return renamed ? { ...block, name: renamed } : block;
		});
	}
	if (typeof next.toolName === "string" && LEGACY_TOOL_NAMES[next.toolName]) {
		next.toolName = LEGACY_TOOL_NAMES[next.toolName];
	}
	return next;
}

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}
