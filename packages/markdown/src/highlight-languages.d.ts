// highlight.js ships no type declarations for its per-language modules.
declare module "highlight.js/lib/languages/*" {
	import type { LanguageFn } from "highlight.js";

	const language: LanguageFn;
	export default language;
}
