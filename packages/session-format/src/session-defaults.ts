import type { BuildContextOptions } from "./context.js";
import type { SessionMetadata } from "./metadata.js";
import { modelDefault } from "./metadata-derive.js";
import type { SessionHeader, StoredRecord } from "./records.js";

/** What a context is built with besides its path: the system prompt and the defaults. */
export type SessionContextDefaults = Pick<BuildContextOptions, "systemPrompt" | "defaults">;

/**
 * The system prompt and the model a session's context falls back to when its path sets none,
 * taken from the log: the header of its first record (the facts it was created with). A log
 * without one (written before headers, or still empty, or whose first line is unreadable) takes
 * them from its metadata.json, as before. Every reader of a session — a full forward scan or a
 * resume that reads backwards — applies this same rule, so they agree.
 */
export function sessionContextDefaults(
	first: StoredRecord | undefined,
	metadata: Pick<SessionMetadata, "model" | "systemPromptOverride" | "thinkingLevel">,
): SessionContextDefaults {
	const header = first?.seq === 1 ? (first as { session?: SessionHeader }).session : undefined;
	if (header) {
		const model = modelDefault(header.model);
		const out: SessionContextDefaults = { defaults: model ? { model } : {} };
		if (header.systemPromptOverride !== undefined) out.systemPrompt = header.systemPromptOverride;
		return out;
	}
	const model = modelDefault(metadata.model);
	const out: SessionContextDefaults = {
		defaults: {
			...(model ? { model } : {}),
			...(metadata.thinkingLevel !== undefined ? { thinkingLevel: metadata.thinkingLevel } : {}),
		},
	};
	if (metadata.systemPromptOverride !== undefined) out.systemPrompt = metadata.systemPromptOverride;
	return out;
}
