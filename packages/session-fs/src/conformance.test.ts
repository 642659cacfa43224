import { runStoreConformance } from "@agent/store-conformance";
import { tempStore } from "./test-home.js";

runStoreConformance("FileSessionStore", async () => tempStore());
runStoreConformance("FileSessionStore (fsync durability, metadata written after every append)", async () =>
	tempStore({ durability: "fsync", metadataFlushMs: 0 }),
);
