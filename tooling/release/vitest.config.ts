import { defineConfig } from "vitest/config";

export default defineConfig({
	test: {
		include: ["test/**/*.test.ts"],
		environment: "node",
		globalSetup: ["test/global-setup.ts"],
		testTimeout: 120_000,
		hookTimeout: 600_000,
		pool: "forks",
	},
});
