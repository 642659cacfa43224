/**
 * @agent/session-format/store-kit: for writing a session store backend, not for using one.
 * `createSessionStore(backend)` makes a whole SessionStore of a narrow SessionBackend; the rest is
 * what backends build their part from, the same way in every store (deferred sessions, argument
 * checks, the fork plan, the log checker behind verify, metadata rebuilt from a log). Loads no
 * zod: a store that only reads never builds the record schemas.
 */
export { checkCompactions, type ReadLogPath } from "./compaction-check.js";
export { DeferredSessions, type HeldSession } from "./deferred-sessions.js";
export { checkExactSeqs } from "./exact-records.js";
export { forkedRecord, forkMetadata, withSessionHeader } from "./fork-plan.js";
export {
	type CheckedLine,
	checkLog,
	type DamagedLine,
	damageAcks,
	type LogCheck,
	type LogFacts,
	repairedReport,
	unreadableLog,
} from "./log-check.js";
export { compareMetadata, type StoredMetadata } from "./metadata-compare.js";
export {
	applyLegacyCreationFacts,
	applyLegacyRunningFacts,
	applyRecord,
	cloneMetadata,
	newMetadata,
	rebuildBase,
	sessionHeaderOf,
} from "./metadata-derive.js";
export { fastMetadata } from "./metadata-fast.js";
export { hasHeader, MetadataRebuild } from "./metadata-rebuild.js";
export { contextOf, openInMemory } from "./open-path.js";
export { lineProblemReason } from "./parse-line.js";
export { type DescendingPath, type DescendingWalkOptions, walkPathDescending } from "./path-walk.js";
export { METADATA_KEYS } from "./schema-keys.js";
export type { BackendJournal, BackendWriter, LeaseWait, SessionBackend } from "./session-backend.js";
export {
	checkAcceptedTurn,
	checkCreateOptions,
	checkIdentityKey,
	checkLabel,
	checkListOptions,
	checkName,
	checkSearchArgs,
	checkSeconds,
	checkTurnId,
} from "./store-args.js";
export { type StoreErrors, storeErrors } from "./store-errors.js";
export { createSessionStore, SessionShell } from "./store-shell.js";
export { gapAcknowledged, unportableTextProblem, verifyPasses } from "./verify-rules.js";
