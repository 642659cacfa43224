import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** One built file of the web page, read into memory at startup. */
export interface WebAsset {
	body: Uint8Array;
	contentType: string;
}

/** The web page's built files by URL path ("/", "/assets/app.js", ...); empty when the page was not built. */
export interface WebAssets {
	dir: string;
	files: ReadonlyMap<string, WebAsset>;
}

const CONTENT_TYPES: Record<string, string> = {
	".html": "text/html; charset=utf-8",
	".js": "text/javascript; charset=utf-8",
	".css": "text/css; charset=utf-8",
	".svg": "image/svg+xml",
};

/**
 * Where `pnpm build` puts the page: dist/web beside the compiled server. When the server runs from
 * its sources (tests), the same built files are found in ../dist/web.
 */
export function defaultWebRoot(): string {
	const here = path.dirname(fileURLToPath(import.meta.url));
	const beside = path.join(here, "web");
	if (fs.existsSync(path.join(beside, "index.html"))) return beside;
	return path.join(here, "..", "dist", "web");
}

/** Reads the page's files: index.html at "/", everything else under "/assets/". Only these paths are served. */
export function loadWebAssets(dir: string = defaultWebRoot()): WebAssets {
	const files = new Map<string, WebAsset>();
	let names: string[] = [];
	try {
		names = fs.readdirSync(dir);
	} catch {
		return { dir, files };
	}
	for (const name of names) {
		const contentType = CONTENT_TYPES[path.extname(name)];
		if (!contentType) continue;
		const body = fs.readFileSync(path.join(dir, name));
		files.set(name === "index.html" ? "/" : `/assets/${name}`, { body, contentType });
	}
	return { dir, files };
}
