import { defineConfig } from "vitest/config";

/** The checks of the source tree (they need the packages built, not packed). */
const SOURCE_CHECKS = ["test/exports.test.ts", "src/**/*.test.ts"];

export default defineConfig({
	test: {
		projects: [
			{
				test: {
					name: "packed",
					include: ["test/**/*.test.ts"],
					exclude: SOURCE_CHECKS,
					environment: "node",
					globalSetup: ["test/global-setup.ts"],
					testTimeout: 120_000,
					hookTimeout: 600_000,
					pool: "forks",
				},
			},
			{
				test: {
					name: "sources",
					include: SOURCE_CHECKS,
					environment: "node",
					// TypeScript reads every entry point's declarations: a minute on a loaded machine.
					testTimeout: 300_000,
					pool: "forks",
				},
			},
		],
	},
});
