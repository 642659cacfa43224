import { defineConfig } from "vitest/config";

/** The vitest preset every package uses: node environment, tests beside the sources. */
export function packageTestConfig(overrides: { testTimeout?: number; include?: string[] } = {}) {
	return defineConfig({
		test: {
			include: overrides.include ?? ["src/**/*.test.ts", "test/**/*.test.ts"],
			environment: "node",
			testTimeout: overrides.testTimeout ?? 20_000,
			hookTimeout: 30_000,
			pool: "forks",
		},
	});
}
