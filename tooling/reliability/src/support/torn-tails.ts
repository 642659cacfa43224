import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** How many torn tails writers cut off a session's log (each is kept in torn-tails.bin under a header line). */
export function tornTailsCut(sessionDir: string): number {
	try {
		const text = readFileSync(join(sessionDir, "torn-tails.bin"), "latin1");
		return text.match(/\n--- \d+ torn bytes cut at offset \d+ on /g)?.length ?? 0;
	} catch {
		return 0;
	}
}

/** Files a session directory holds that are neither the log, the cache, nor the torn-tail keep (e.g. temp files). */
export function strayFiles(sessionDir: string): string[] {
	const expected = new Set(["session.jsonl", "metadata.json", "torn-tails.bin"]);
	return readdirSync(sessionDir).filter((name) => !expected.has(name));
}
