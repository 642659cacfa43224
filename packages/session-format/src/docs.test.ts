/// <reference types="node" />
// Pins docs/session-format.md: its worked example, and every test it names as pinning a rule.
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { buildContext, type SessionContext } from "./context.js";
import { parseSessionLog } from "./log.js";
import { serializeRecord } from "./serialize.js";
import { SessionTree } from "./tree.js";

const SRC = fileURLToPath(new URL(".", import.meta.url));
const DOC = readFileSync(fileURLToPath(new URL("../../../docs/session-format.md", import.meta.url)), "utf8");

/** The fenced block right after `<!-- worked-example:{name} -->`. */
function block(name: string): string {
	const match = new RegExp(`<!-- worked-example:${name} -->\\s*\`\`\`\\w+\\n([\\s\\S]*?)\`\`\``).exec(DOC);
	if (!match) throw new Error(`docs/session-format.md has no worked-example:${name} block`);
	return match[1] as string;
}

/** A context as the doc shows it: one line per message. */
function render(context: SessionContext): string {
	return context.messages
		.map((message) => {
			const parts = message.content.map((b) =>
				b.type === "text"
					? JSON.stringify(b.text)
					: b.type === "toolCall"
						? `[toolCall ${b.name} ${JSON.stringify(b.arguments)}]`
						: `[${b.type}]`,
			);
			return `#${message.seq} ${message.role} (${message.origin}): ${parts.join(" ")}\n`;
		})
		.join("");
}

describe("docs/session-format.md", () => {
	it("the worked example's log yields the contexts shown for leaves 7 and 9", () => {
		const log = block("log");
		const { records, problems } = parseSessionLog(log, { strict: true });
		expect(problems).toEqual([]);
		expect(records.map(serializeRecord)).toEqual(log.trimEnd().split("\n"));
		const tree = new SessionTree(records);
		expect(tree.leaves()).toEqual([7, 9]);
		expect(tree.branchPoints()).toEqual([4]);
		expect(tree.roots()).toEqual([1]);
		expect([...tree.labels()]).toEqual([[4, "before the rename"]]);
		expect(tree.activeLeaf()).toBe(9);
		const at7 = buildContext(tree, { leafSeq: 7 });
		const at9 = buildContext(tree);
		expect(render(at7)).toBe(block("context-7"));
		expect(render(at9)).toBe(block("context-9"));
		for (const context of [at7, at9])
			expect(context.model).toEqual({ provider: "anthropic", modelId: "claude-sonnet-4-5" });
	});

	it("every test named as pinning a rule exists", () => {
		const references = [...DOC.matchAll(/`([\w.-]+\.test\.ts) › ([^`]+)`/g)].map((m) => ({
			file: m[1] as string,
			name: m[2] as string,
		}));
		expect(references.length).toBeGreaterThan(40);
		const missing = references.filter(({ file, name }) => {
			const path = `${SRC}${file}`;
			if (!existsSync(path)) return true;
			const source = readFileSync(path, "utf8");
			return !['"', "`", "'"].some((quote) => source.includes(`${quote}${name}${quote}`));
		});
		expect(missing).toEqual([]);
	});
});
