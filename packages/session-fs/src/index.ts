export { readCacheFile, replaceCacheFile } from "./cache-files.js";
export type { FileSessionLease } from "./lease.js";
export type { Durability, FileStoreOptions } from "./options.js";
export { cachePath, resolveHome, type SessionPaths, sessionPaths, sessionsRoot } from "./paths.js";
export { createFileStore, FileSessionStore } from "./store.js";
