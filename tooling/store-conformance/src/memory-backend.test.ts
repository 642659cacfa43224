// A third backend, written from SessionBackend alone, passes the suite every backend runs: all a
// new store needs is that interface (createSessionStore does the rest).
import { createSessionStore } from "@agent/session-format/store-kit";
import { runStoreConformance } from "./conformance.js";
import { MemoryBackend } from "./test-memory-backend.js";

runStoreConformance("a backend in memory (createSessionStore over SessionBackend alone)", async () => {
	const backend = new MemoryBackend();
	return {
		store: createSessionStore(backend),
		async cleanup() {},
		async dropCaches() {
			backend.dropCaches();
			return createSessionStore(new MemoryBackend(backend.sessions));
		},
	};
});
