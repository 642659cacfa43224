import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { type BrowserContext, chromium } from "playwright-core";

/** Debian's chromium (or $CHROMIUM_PATH); playwright never downloads a browser here. */
export function chromiumPath(): string | undefined {
	const candidate = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
	return fs.existsSync(candidate) ? candidate : undefined;
}

/** A headless Chromium with a fresh profile directory; close() removes the profile. */
export async function launchChromium(
	executablePath: string,
): Promise<{ context: BrowserContext; close(): Promise<void> }> {
	const profile = await fsp.mkdtemp(path.join(os.tmpdir(), "agent-server-chromium-"));
	const context = await chromium.launchPersistentContext(profile, {
		executablePath,
		headless: true,
		args: [
			"--headless",
			"--no-sandbox",
			"--disable-gpu",
			"--disable-background-networking",
			"--disable-component-update",
			"--disable-sync",
			"--no-first-run",
		],
	});
	return {
		context,
		async close() {
			await context.close();
			await fsp.rm(profile, { recursive: true, force: true });
		},
	};
}
