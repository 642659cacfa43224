import {
	buildContextFromPath,
	type OpenedSession,
	type OpenOptions,
	type SessionContext,
	type SessionMetadata,
	type StoredRecord,
} from "@agent/session-format";
import { invalidArgument } from "./errors.js";
import type { LogView } from "./log-view.js";
import { cloneMetadata, modelDefault } from "./metadata-derive.js";
import { walkPathBackward } from "./path-walk.js";

/** Resume: metadata, the live part of the path, and the context built from it. */
export async function resumeSession(
	view: LogView,
	options: OpenOptions,
	read: { chunkBytes: number; where: string },
): Promise<OpenedSession> {
	const metadata = view.state.metadata;
	const leafSeq = options.leafSeq ?? metadata.leafSeq ?? metadata.lastSeq;
	if (!Number.isInteger(leafSeq) || leafSeq < 0 || leafSeq > metadata.lastSeq) {
		throw invalidArgument(
			`cannot open session ${metadata.id} at seq ${String(leafSeq)}: it holds seqs 1..${metadata.lastSeq}`,
		);
	}
	const walk = async (leaf: number, leafFallsBack = false) =>
		view.fd === undefined || leaf === 0
			? []
			: await walkPathBackward(
					view.fd,
					{
						leafSeq: leaf,
						stopAtCompaction: true,
						leafFallsBack,
						end: view.state.size,
						chunkBytes: read.chunkBytes,
						onProblem: options.onProblem,
						where: read.where,
					},
					(record) => record,
				);
	const moved = options.leafSeq === undefined && leafSeq !== metadata.lastSeq;
	// The default leaf is the last readable record (as SessionTree.activeLeaf), even when the last line is damaged.
	let path = await walk(leafSeq, options.leafSeq === undefined && !moved);
	if (path.length === 0 && leafSeq > 0) {
		if (options.leafSeq !== undefined) {
			throw invalidArgument(`cannot open session ${metadata.id} at seq ${leafSeq}: no readable record has that seq`);
		}
		// A moved leaf whose line is unreadable: fall back to the last record, as SessionTree.activeLeaf does.
		if (moved) path = await walk(metadata.lastSeq, true);
	}
	return { metadata: cloneMetadata(metadata), path, context: contextOf(path, metadata, options) };
}

/**
 * The context of an opened path: the session's system prompt unless the caller gives one, and
 * its model and thinking level where the (possibly partial) path sets none.
 */
export function contextOf(
	path: readonly StoredRecord[],
	metadata: SessionMetadata,
	options: OpenOptions,
): SessionContext {
	const model = modelDefault(metadata.model);
	return buildContextFromPath(path, {
		ephemeral: options.ephemeral,
		systemPrompt: options.systemPrompt ?? metadata.systemPromptOverride,
		defaults: {
			...(model ? { model } : {}),
			...(metadata.thinkingLevel !== undefined ? { thinkingLevel: metadata.thinkingLevel } : {}),
		},
	});
}
