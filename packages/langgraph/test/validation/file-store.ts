// The initializer `validate-checkpointer` runs LangGraph's conformance suite with: StoreCheckpointer
// over a file store, each checkpointer on a fresh directory of its own.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createFileStore } from "@agent/session-fs";
import { StoreCheckpointer } from "../../src/index.js";

const homes = new WeakMap<StoreCheckpointer, string>();

export default {
	checkpointerName: "@agent/langgraph StoreCheckpointer (file store)",
	createCheckpointer(): StoreCheckpointer {
		const home = mkdtempSync(join(tmpdir(), "agent-langgraph-validate-"));
		const checkpointer = new StoreCheckpointer({ store: createFileStore({ home }) });
		homes.set(checkpointer, home);
		return checkpointer;
	},
	destroyCheckpointer(checkpointer: StoreCheckpointer): void {
		const home = homes.get(checkpointer);
		if (home) rmSync(home, { recursive: true, force: true });
	},
};
