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
