export { type EventRelay, RELAY_CHANNEL, type RelayedEvents, startEventRelay } from "./event-relay.js";
export { MIGRATIONS, type Migration, migrate } from "./migrations.js";
export { openPgStore, PgSessionStore, type PgStoreOptions } from "./store.js";
export { EVENTS_CHANNEL } from "./write-tx.js";
