/**
 * @agent/session-format/store-kit: for writing a session store backend, not for using one.
 * `createSessionStore(backend)` makes a whole SessionStore of a narrow SessionBackend, doing the
 * argument checks, deferred sessions, branch/label/rename/archive/uptime, repair and close itself;
 * the rest is what backends build their part from, the same way in every store (the fork plan,
 * the log checker behind verify, metadata rebuilt from a log, the error words). Loads no zod: a
 * store that only reads never builds the record schemas.
 */
export { checkCompactions } from "./compaction-check.js";
export type { HeldSession } from "./deferred-sessions.js";
export { checkExactSeqs } from "./exact-records.js";
export { forkedRecord, forkMetadata, withSessionHeader } from "./fork-plan.js";
export { decodeListCursor, encodeListCursor, type ListCursor } from "./list-cursor.js";
export { type CheckedLine, checkLog, type LogCheck, unreadableLog } from "./log-check.js";
export type { StoredMetadata } from "./metadata-compare.js";
export { applyRecord, cloneMetadata, newMetadata, rebuildBase, sessionHeaderOf } from "./metadata-derive.js";
export { fastMetadata } from "./metadata-fast.js";
export { MetadataRebuild } from "./metadata-rebuild.js";
export { contextOf } from "./open-path.js";
export { lineProblemReason } from "./parse-line.js";
export { type DescendingPath, type DescendingWalkOptions, walkPathDescending } from "./path-walk.js";
export { METADATA_KEYS } from "./schema-keys.js";
export type { BackendJournal, BackendWriter, LeaseWait, SessionBackend } from "./session-backend.js";
export { type SessionContextDefaults, sessionContextDefaults } from "./session-defaults.js";
export { checkAcceptedTurn } from "./store-args.js";
export { storeErrors } from "./store-errors.js";
export { createSessionStore, SessionShell } from "./store-shell.js";
export { asciiRunOf, listSearchMatches, type TextMatcher, textMatcher } from "./text-search.js";
export { verifyPasses } from "./verify-rules.js";
