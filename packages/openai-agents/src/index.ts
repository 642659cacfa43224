export { ITEMS_TYPE, type ItemsKind } from "./item-records.js";
export { StoreSession, type StoreSessionOptions } from "./store-session.js";
export type { SummarizingCompaction } from "./summarize.js";
export { TRANSACTION_TYPE } from "./transactions.js";
