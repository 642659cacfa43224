/**
 * Builds the web page into dist/web: an esbuild bundle of web/src/main.ts (vanilla TypeScript,
 * plus the pure @agent/session-format, @agent/markdown, @tanstack/virtual-core and DOMPurify),
 * the stylesheet, and index.html. Part of `pnpm build`.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { MARKDOWN_CSS } from "@agent/markdown";
import { build } from "esbuild";

const here = path.dirname(fileURLToPath(import.meta.url));
const out = path.join(here, "..", "dist", "web");

fs.rmSync(out, { recursive: true, force: true });
fs.mkdirSync(out, { recursive: true });
const result = await build({
	entryPoints: [path.join(here, "src", "main.ts")],
	outfile: path.join(out, "app.js"),
	bundle: true,
	format: "esm",
	platform: "browser",
	target: ["es2022"],
	minify: true,
	legalComments: "none",
	// The page never validates records (the server did); see src/zod-stub.ts.
	alias: { zod: path.join(here, "src", "zod-stub.ts") },
	logLevel: "warning",
});
// A warning here has meant a broken page (an import the zod stand-in lacks is undefined at run
// time, and the page stopped at load): the build fails instead.
if (result.warnings.length > 0) {
	throw new Error(`the web page's bundle has ${result.warnings.length} warning(s); see above`);
}
// The page's styles, then the rendered Markdown's (shared with the HTML export).
fs.writeFileSync(
	path.join(out, "app.css"),
	`${fs.readFileSync(path.join(here, "styles.css"), "utf8")}\n${MARKDOWN_CSS}`,
);
fs.copyFileSync(path.join(here, "index.html"), path.join(out, "index.html"));
fs.copyFileSync(path.join(here, "icon.svg"), path.join(out, "icon.svg"));
