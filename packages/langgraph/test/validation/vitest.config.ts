import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

/**
 * LangGraph's checkpointer conformance suite (@langchain/langgraph-checkpoint-validation, library
 * form: its specs use vitest globals). test/validation.test.ts runs it in a child process with this
 * config and shows its output only when it fails.
 */
export default defineConfig({
	test: {
		root: fileURLToPath(new URL("../..", import.meta.url)),
		include: ["test/validation/*.spec.ts"],
		globals: true,
		environment: "node",
		pool: "forks",
		fileParallelism: false,
		testTimeout: 60_000,
		hookTimeout: 120_000,
	},
});
