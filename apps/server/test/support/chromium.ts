import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { type BrowserContext, chromium, type LaunchOptions } from "playwright-core";

/** Debian's chromium (or $CHROMIUM_PATH); playwright never downloads a browser here. */
export function chromiumPath(): string | undefined {
	const candidate = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
	return fs.existsSync(candidate) ? candidate : undefined;
}

/**
 * A headless Chromium with a fresh profile directory; close() removes the profile. `device` makes
 * it a phone: its viewport, a touch screen (pointer: coarse), no hover.
 */
export async function launchChromium(
	executablePath: string,
	device: Pick<
		Parameters<typeof chromium.launchPersistentContext>[1] & LaunchOptions,
		"viewport" | "hasTouch" | "isMobile"
	> = {},
): Promise<{ context: BrowserContext; close(): Promise<void> }> {
	const profile = await fsp.mkdtemp(path.join(os.tmpdir(), "agent-server-chromium-"));
	const context = await chromium.launchPersistentContext(profile, {
		...device,
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

/**
 * Outside CI a machine without Chromium skips the browser tests and says so; in CI (which
 * installs Debian's chromium) a missing browser fails them, so they can never pass by not running.
 */
export const skipBrowser = !chromiumPath() && !process.env.CI;
if (skipBrowser) {
	console.warn(
		`browser test skipped: no Chromium at ${process.env.CHROMIUM_PATH || "/usr/bin/chromium"}; ` +
			"install Debian's chromium (apt-get install chromium) or set CHROMIUM_PATH",
	);
}

/** The browser to launch; in CI without one, a failure that says what is missing. */
export function requiredChromium(): string {
	const executablePath = chromiumPath();
	if (executablePath) return executablePath;
	throw new Error(
		`CI needs Chromium for the browser tests: none at ${process.env.CHROMIUM_PATH || "/usr/bin/chromium"}; install Debian's chromium`,
	);
}

/** Collects a page's errors and console errors (a CSP violation is one), for tests to assert there are none. */
export function watchErrors(page: import("playwright-core").Page): string[] {
	const errors: string[] = [];
	page.on("pageerror", (error) => errors.push(error.message));
	page.on("console", (message) => {
		if (message.type() === "error") errors.push(message.text());
	});
	return errors;
}
