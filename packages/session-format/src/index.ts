/** The whole package: what reading.ts holds, and the zod schemas and what validates with them. */

export { prepareBatch } from "./batch.js";
export {
	contentBlockSchema,
	contentSchema,
	imageBlockSchema,
	textBlockSchema,
	thinkingBlockSchema,
	toolArgumentsSchema,
	toolCallBlockSchema,
} from "./content.js";
export { lazySchema } from "./lazy-schema.js";
export { type ParsedLog, type ParseLogOptions, parseSessionLog } from "./log.js";
export { sessionMetadataSchema, sessionMetricsSchema, sessionSourceSchema, tokenTotalsSchema } from "./metadata.js";
export { parseRecordLine, parseRecordValue } from "./parse.js";
export * from "./reading.js";
export {
	archiveChangeRecordSchema,
	branchSummaryRecordSchema,
	compactionRecordSchema,
	compactionTriggerSchema,
	customMessageRecordSchema,
	customRecordSchema,
	damageAckRecordSchema,
	labelRecordSchema,
	leafChangeRecordSchema,
	messageRecordSchema,
	messageRoleSchema,
	modelChangeRecordSchema,
	pathSettingsSchema,
	sessionHeaderSchema,
	sessionInfoRecordSchema,
	sessionRecordSchema,
	stopReasonSchema,
	thinkingLevelChangeRecordSchema,
	turnOutcomeSchema,
	turnRecordSchema,
	uptimeRecordSchema,
	usageSchema,
} from "./records.js";
export { compactionConfigSchema, compactionSettingsFromConfig } from "./settings.js";
export { isIsoTimestamp, validateRecordInput } from "./validate.js";
