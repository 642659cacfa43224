/**
 * Stands in for zod in the page's bundle. @agent/session-format defines its record schemas with
 * zod at module load, but the page only uses its pure helpers (the record tree, content text) and
 * never validates: the server already did. Bundling zod would add ~450 kB (most of it locales) for
 * dead code, so the build aliases "zod" to this chainable stand-in; validating through it throws.
 */
const refuse = () => {
	throw new Error("schema validation is not available in the web page's bundle");
};

const VALIDATORS = new Set(["parse", "safeParse", "parseAsync", "safeParseAsync", "decode", "encode"]);

const chain: unknown = new Proxy(() => {}, {
	get: (_target, key) => {
		if (typeof key === "string" && VALIDATORS.has(key)) return refuse;
		if (key === Symbol.toPrimitive) return () => "[zod stub]";
		return chain;
	},
	apply: () => chain,
	construct: () => chain as object,
});

export const z = chain;
export default chain;
// `import * as z from "zod"` reads these as the module's own exports: each is the stand-in. A name
// missing here is undefined in the page (web/build.mjs fails on esbuild's warning about it).
export const lazy = chain;
export const object = chain;
export const string = chain;
export const number = chain;
export const boolean = chain;
export const literal = chain;
export const array = chain;
export const unknown = chain;
export const record = chain;
export const discriminatedUnion = chain;
export const union = chain;
export const custom = chain;
export const any = chain;
export const ZodError = chain;
export { chain as enum };
