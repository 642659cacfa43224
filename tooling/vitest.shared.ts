import { defineConfig } from "vitest/config";

/** The vitest preset every package uses: node environment, tests beside the sources. */
export function packageTestConfig(overrides: { testTimeout?: number; include?: string[] } = {}) {
	return defineConfig({
		test: {
			include: overrides.include ?? ["src/**/*.test.ts", "test/**/*.test.ts"],
			environment: "node",
			// Generous: CI machines are small and shared; a test that hangs still fails, only later.
			testTimeout: overrides.testTimeout ?? 60_000,
			hookTimeout: 60_000,
			pool: "forks",
		},
	});
}
