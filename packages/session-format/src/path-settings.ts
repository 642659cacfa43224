import type { PathSettings, StoredRecord } from "./records.js";

/**
 * The model and thinking level in force along a path, followed record by record: the last
 * `model_change` or assistant message with a provider and model sets the model, the last
 * `thinking_level_change` the thinking level, and a compaction carrying `pathSettings` sets both
 * to what was in force where it was written (none, when it says none). It keeps the records that
 * set them, not copies, so following a whole session allocates nothing per record.
 */
export class PathSettingsFollower {
	private model: StoredRecord | undefined;
	private thinking: StoredRecord | undefined;

	add(record: StoredRecord): void {
		switch (record.recordType) {
			case "model_change":
				this.model = record;
				break;
			case "thinking_level_change":
				this.thinking = record;
				break;
			case "message":
				if (record.role === "assistant" && record.provider && record.model) this.model = record;
				break;
			case "compaction":
				if (record.pathSettings) {
					this.model = record;
					this.thinking = record;
				}
				break;
		}
	}

	/** The settings so far; absent fields: the path sets none (callers apply their defaults). */
	get settings(): PathSettings {
		const settings: PathSettings = {};
		const model = modelOf(this.model);
		if (model) settings.model = { provider: model.provider, modelId: model.modelId };
		const thinking = this.thinking;
		const thinkingLevel =
			thinking?.recordType === "thinking_level_change"
				? thinking.thinkingLevel
				: thinking?.recordType === "compaction"
					? thinking.pathSettings?.thinkingLevel
					: undefined;
		if (thinkingLevel !== undefined) settings.thinkingLevel = thinkingLevel;
		return settings;
	}
}

function modelOf(record: StoredRecord | undefined): PathSettings["model"] {
	switch (record?.recordType) {
		case "model_change":
			return { provider: record.provider, modelId: record.modelId };
		case "message":
			return record.role === "assistant" && record.provider && record.model
				? { provider: record.provider, modelId: record.model }
				: undefined;
		case "compaction":
			return record.pathSettings?.model;
		default:
			return undefined;
	}
}

/**
 * The model and thinking level the path sets ({@link PathSettingsFollower}'s rules). A suffix of
 * the path that starts at the latest compaction's firstKeptSeq gives the same settings as the
 * whole path.
 */
export function pathSettingsOf(path: readonly StoredRecord[]): PathSettings {
	const follower = new PathSettingsFollower();
	for (const record of path) follower.add(record);
	return follower.settings;
}
