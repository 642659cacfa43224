import fs from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";

const require = createRequire(import.meta.url);
const AXE_SOURCE = fs.readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

/** One axe-core violation, as much as a failing test needs to say what and where. */
export interface AxeViolation {
	id: string;
	impact: string | null;
	help: string;
	nodes: string[];
}

/**
 * Runs axe-core (every rule it runs by default: WCAG 2 A and AA, and its best practices) on the
 * page as it is now and returns the violations. The script goes in through the DevTools protocol,
 * which the page's Content-Security-Policy does not govern, so the page runs as served.
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
	const loaded = await page.evaluate("typeof window.axe === 'object'");
	if (!loaded) await page.evaluate(AXE_SOURCE);
	return (await page.evaluate(`(async () => {
		const results = await window.axe.run(document, { resultTypes: ["violations"] });
		return results.violations.map((v) => ({
			id: v.id,
			impact: v.impact,
			help: v.help,
			nodes: v.nodes.slice(0, 5).map((n) => n.target.join(" ") + " :: " + (n.failureSummary || "").replace(/\\s+/g, " ").slice(0, 200)),
		}));
	})()`)) as AxeViolation[];
}
