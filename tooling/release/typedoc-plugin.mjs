// @ts-check
/**
 * Keeps the API reference readable (no line over 300 characters, docs/api): what TypeScript would
 * spell out in full is named or shortened here.
 * - A constant holding a long string (a prompt) is typed `string`: its text is in the source, and
 *   as a literal type it made one line of a thousand characters.
 * - A zod schema constant shows its outer schema types, not every field's: its doc comment and the
 *   named type it checks say what it holds.
 * - A long union (a type alias of many members) is written one member per line.
 */
import { IntrinsicType, ReflectionKind, RendererEvent, UnknownType } from "typedoc";
import { MarkdownPageEvent } from "typedoc-plugin-markdown";

const LONG_LITERAL = 120;
const LONG_TYPE = 200;
const LONG_LINE = 300;

/** @param {import("typedoc").Application} app */
export function load(app) {
	// At render time, on the merged project: changed earlier, the packages' projects would refer to
	// what their serialization no longer holds.
	app.renderer.on(RendererEvent.BEGIN, (event) => {
		for (const reflection of event.project.getReflectionsByKind(ReflectionKind.Variable)) {
			const declaration = /** @type {import("typedoc").DeclarationReflection} */ (reflection);
			const type = declaration.type;
			if (!type) continue;
			if (type.type === "literal" && typeof type.value === "string" && type.value.length > LONG_LITERAL) {
				declaration.type = new IntrinsicType("string");
			} else if (type.type === "reference" && type.name.startsWith("Zod") && type.toString().length > LONG_TYPE) {
				declaration.type = new UnknownType(outerTypes(type.toString()));
			}
		}
	});
	app.renderer.on(MarkdownPageEvent.END, (page) => {
		if (page.contents) page.contents = page.contents.split("\n").map(splitLongUnion).join("\n");
	});
}

/** `ZodLazy<ZodObject<{ ... }>>` → `ZodLazy<ZodObject<…>>`: the schema's kind, without its fields. */
function outerTypes(text) {
	const names = [];
	for (const match of text.matchAll(/(Zod\w+)</g)) {
		if (match.index !== names.join("<").length + (names.length > 0 ? 1 : 0)) break;
		names.push(match[1]);
	}
	return names.length === 0 ? "ZodType" : `${names.join("<")}<…${">".repeat(names.length)}`;
}

/** A declaration line `> **Name** = A \| B \| …` longer than LONG_LINE: one member a line (Markdown joins them). */
function splitLongUnion(line) {
	if (line.length <= LONG_LINE || !line.startsWith("> ") || !line.includes(" \\| ")) return line;
	return line.split(" \\| ").join("\n> \\| ");
}
