import hljs from "highlight.js/lib/core";
import bash from "highlight.js/lib/languages/bash";
import c from "highlight.js/lib/languages/c";
import cpp from "highlight.js/lib/languages/cpp";
import csharp from "highlight.js/lib/languages/csharp";
import css from "highlight.js/lib/languages/css";
import diff from "highlight.js/lib/languages/diff";
import dockerfile from "highlight.js/lib/languages/dockerfile";
import go from "highlight.js/lib/languages/go";
import ini from "highlight.js/lib/languages/ini";
import java from "highlight.js/lib/languages/java";
import javascript from "highlight.js/lib/languages/javascript";
import json from "highlight.js/lib/languages/json";
import kotlin from "highlight.js/lib/languages/kotlin";
import markdown from "highlight.js/lib/languages/markdown";
import php from "highlight.js/lib/languages/php";
import python from "highlight.js/lib/languages/python";
import ruby from "highlight.js/lib/languages/ruby";
import rust from "highlight.js/lib/languages/rust";
import shell from "highlight.js/lib/languages/shell";
import sql from "highlight.js/lib/languages/sql";
import swift from "highlight.js/lib/languages/swift";
import typescript from "highlight.js/lib/languages/typescript";
import xml from "highlight.js/lib/languages/xml";
import yaml from "highlight.js/lib/languages/yaml";

// The languages agents write most; each grammar costs bundle size in the web page, so the set is
// closed (a fence in another language is shown as plain, escaped code).
const LANGUAGES = {
	bash,
	c,
	cpp,
	csharp,
	css,
	diff,
	dockerfile,
	go,
	ini,
	java,
	javascript,
	json,
	kotlin,
	markdown,
	php,
	python,
	ruby,
	rust,
	shell,
	sql,
	swift,
	typescript,
	xml,
	yaml,
};
for (const [name, grammar] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, grammar);
hljs.registerAliases(["toml"], { languageName: "ini" });

/** Code longer than this is shown plain: highlighting it would stall a page for little gain. */
export const MAX_HIGHLIGHT_CHARS = 50_000;

/**
 * The code as highlighted HTML (highlight.js escapes every character of the code it emits), or
 * undefined when the language is unknown or the code too long: the caller then escapes it plainly.
 */
export function highlightCode(code: string, language: string): string | undefined {
	const name = language.trim().toLowerCase();
	if (!name || code.length > MAX_HIGHLIGHT_CHARS || !hljs.getLanguage(name)) return undefined;
	return hljs.highlight(code, { language: name, ignoreIllegals: true }).value;
}

/** The names a code fence may carry to be highlighted (aliases such as js, ts, py, sh, yml included). */
export function highlightedLanguages(): string[] {
	return hljs.listLanguages();
}
