import { buildContextFromPath, type SessionContext } from "./context.js";
import { AgentSessionError } from "./errors.js";
import type { SessionMetadata } from "./metadata.js";
import type { SessionRecord, StoredRecord } from "./records.js";
import { sessionContextDefaults } from "./session-defaults.js";
import type { OpenedSession, OpenOptions } from "./store-contract.js";
import { SessionTree } from "./tree.js";

function invalidArgument(message: string): AgentSessionError {
	return new AgentSessionError("INVALID_ARGUMENT", `@agent/session-format: ${message}`);
}

/**
 * The context of an opened path: the caller's system prompt, else the session's; the session's
 * model where the path sets none. Both from the session header on the log's first record (see
 * sessionContextDefaults), which `first` is when it has seq 1.
 */
export function contextOf(
	path: readonly StoredRecord[],
	first: StoredRecord | undefined,
	metadata: SessionMetadata,
	options: OpenOptions,
): SessionContext {
	const session = sessionContextDefaults(first, metadata);
	const systemPrompt = options.systemPrompt ?? session.systemPrompt;
	return buildContextFromPath(path, {
		ephemeral: options.ephemeral,
		...(systemPrompt !== undefined ? { systemPrompt } : {}),
		...(session.defaults ? { defaults: session.defaults } : {}),
	});
}

/** open() of a session still held in memory: the same answer a log on disk would give. */
export function openInMemory(
	metadata: SessionMetadata,
	records: readonly SessionRecord[],
	options: OpenOptions,
): OpenedSession {
	const tree = new SessionTree(records);
	if (
		options.leafSeq !== undefined &&
		(!Number.isInteger(options.leafSeq) || options.leafSeq < 0 || options.leafSeq > metadata.lastSeq)
	) {
		throw invalidArgument(
			`cannot open session ${metadata.id} at seq ${options.leafSeq}: it holds seqs 1..${metadata.lastSeq}`,
		);
	}
	const leafSeq = options.leafSeq ?? tree.activeLeaf();
	const full = leafSeq === null || leafSeq === 0 ? [] : tree.path(leafSeq);
	let path: StoredRecord[] = full;
	for (let i = full.length - 1; i >= 0; i--) {
		const record = full[i] as StoredRecord;
		if (record.recordType === "compaction") {
			const firstKept = record.firstKeptSeq;
			path = full.filter((entry) => entry.seq >= firstKept);
			break;
		}
	}
	return { metadata, path, context: contextOf(path, tree.get(1), metadata, options) };
}
