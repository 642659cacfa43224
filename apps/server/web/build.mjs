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
	logLevel: "warning",
	metafile: true,
});
if (result.warnings.length > 0) {
	throw new Error(`the web page's bundle has ${result.warnings.length} warning(s); see above`);
}
// The page never validates records (the server did): it imports @agent/session-format/reading,
// which never loads zod. Should an import bring zod back, the page would carry ~200 kB of dead
// code: the build fails instead.
const zodInPage = Object.values(result.metafile.outputs)
	.flatMap((output) => Object.entries(output.inputs))
	.filter(([input, { bytesInOutput }]) => /[\\/]zod[\\/]/.test(input) && bytesInOutput > 0)
	.map(([input]) => input);
if (zodInPage.length > 0) {
	throw new Error(`the web page's bundle holds zod (${zodInPage[0]}...): import @agent/session-format/reading`);
}
// The rendered Markdown's styles (shared with the HTML export), then the page's, one file per part
// of the page, in this order (later rules refine earlier ones; the phone's come last).
const STYLES = ["base", "sidebar", "session", "transcript", "panels", "phone"];
const css = STYLES.map((name) => fs.readFileSync(path.join(here, "styles", `${name}.css`), "utf8"));
fs.writeFileSync(path.join(out, "app.css"), [MARKDOWN_CSS, ...css].join("\n"));
fs.copyFileSync(path.join(here, "index.html"), path.join(out, "index.html"));
fs.copyFileSync(path.join(here, "icon.svg"), path.join(out, "icon.svg"));
