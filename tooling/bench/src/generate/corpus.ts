import { headOf } from "@agent/session-format";
import type { Random } from "./random.js";

/** What a piece of text looks like: source code, command output, or an agent's prose. */
export type TextKind = "code" | "shell" | "prose";

const CORPUS_CHARS = 512 << 10;

const WORDS = (
	"the session store reads backwards from the end of the log until it has the latest compaction and " +
	"everything kept after it so the cost follows the live context not the file we need to check how the " +
	"writer handles a torn tail before the next append lands and whether metadata stays a cache that can " +
	"always be rebuilt let me look at the failing test first then trace the call through the reader into " +
	"parse the fix is small keep the lease while appending and release it after flushing metadata this " +
	"function returns early when the buffer is empty which hides the real error the user asked for a " +
	"summary of changes so far including files read and modified and the open questions about retries"
).split(" ");

const IDENTIFIERS = [
	"session",
	"record",
	"buffer",
	"offset",
	"lease",
	"metadata",
	"context",
	"options",
	"reader",
	"writer",
	"result",
	"summary",
	"entries",
	"path",
	"leafSeq",
	"chunk",
	"store",
	"config",
];
const FILES = [
	"src/store.ts",
	"src/reader.ts",
	"src/lease.ts",
	"src/context.ts",
	"src/compaction/prepare.ts",
	"src/cli/main.ts",
	"test/store.test.ts",
	"README.md",
	"package.json",
	"docs/format.md",
];
const UNICODE = ["→", "é", "✓", "—", "…", "µs", "日本語", "🙂", "ü", "≥"];

/** Deterministic pools of realistic text; pieces of them fill messages. */
export class Corpus {
	private readonly texts: Record<TextKind, string>;

	constructor(private readonly random: Random) {
		this.texts = { code: this.build(() => this.codeLine()), shell: this.build(() => this.shellLine()), prose: "" };
		this.texts.prose = this.build(() => this.sentence());
	}

	/** About `length` characters of `kind` text, starting at a line start. */
	take(kind: TextKind, length: number): string {
		const text = this.texts[kind];
		let start = text.indexOf("\n", this.random.int(0, text.length - 1)) + 1;
		if (start <= 0 || start >= text.length) start = 0;
		// Cut on whole characters: the pools hold emoji, and half of one is not text (stores refuse it).
		if (start + length <= text.length) return headOf(text.slice(start), length);
		let out = text.slice(start);
		while (out.length < length) {
			const more = headOf(text, length - out.length);
			if (more.length === 0) break;
			out += more;
		}
		return out;
	}

	/** A file path of the kind agents read and edit. */
	file(): string {
		return this.random.pick(FILES);
	}

	sentence(): string {
		const count = this.random.int(6, 22);
		const words: string[] = [];
		for (let i = 0; i < count; i++) words.push(this.random.pick(WORDS));
		if (this.random.chance(0.08)) words.push(this.random.pick(UNICODE));
		if (this.random.chance(0.1)) words.push(`\`${this.random.pick(IDENTIFIERS)}\``);
		const first = words[0] ?? "the";
		words[0] = first.charAt(0).toUpperCase() + first.slice(1);
		return `${words.join(" ")}.${this.random.chance(0.25) ? "\n\n" : " "}`;
	}

	private build(line: () => string): string {
		const parts: string[] = [];
		let length = 0;
		while (length < CORPUS_CHARS) {
			const next = line();
			parts.push(next);
			length += next.length;
		}
		return parts.join("");
	}

	private codeLine(): string {
		const r = this.random;
		const indent = "\t".repeat(r.int(0, 3));
		const a = r.pick(IDENTIFIERS);
		const b = r.pick(IDENTIFIERS);
		switch (r.int(0, 7)) {
			case 0:
				return `${indent}const ${a} = await ${b}.read(${r.int(0, 4096)});\n`;
			case 1:
				return `${indent}if (${a}.length > ${r.int(1, 512)}) return ${b};\n`;
			case 2:
				return `${indent}export function ${a}Of(${b}: string): number {\n`;
			case 3:
				return `${indent}// ${this.sentence().trim()}\n`;
			case 4:
				return `${indent}throw new Error(\`could not ${r.pick(WORDS)} the ${a}: \${${b}}\`);\n`;
			case 5:
				return `${indent}}\n`;
			case 6:
				return `${indent}${a}.push({ type: "${b}", seq: ${r.int(1, 99999)}, text: "${r.pick(WORDS)} ${r.pick(UNICODE)}" });\n`;
			default:
				return `${indent}import { ${a} } from "./${b}.js";\n`;
		}
	}

	private shellLine(): string {
		const r = this.random;
		switch (r.int(0, 5)) {
			case 0:
				return ` ✓ ${r.pick(FILES)} (${r.int(1, 40)} tests) ${r.int(3, 900)}ms\n`;
			case 1:
				return `-rw-r--r--  1 dev dev ${String(r.int(10, 99999)).padStart(6)} Feb 11 10:${String(r.int(0, 59)).padStart(2, "0")} ${r.pick(FILES)}\n`;
			case 2:
				return `${r.pick(FILES)}:${r.int(1, 400)}:${r.int(1, 80)} - error TS${r.int(2000, 2900)}: Property '${r.pick(IDENTIFIERS)}' does not exist on type '${r.pick(IDENTIFIERS)}'.\n`;
			case 3:
				return `commit ${r.id("", 40).toLowerCase()}\nAuthor: Dev <dev@example.com>\n\n    ${this.sentence().trim()}\n\n`;
			case 4:
				return `  at ${r.pick(IDENTIFIERS)} (file:///work/${r.pick(FILES)}:${r.int(1, 400)}:${r.int(1, 80)})\n`;
			default:
				return `${r.pick(["npm", "pnpm", "node", "git"])} ${r.pick(["WARN", "info", "notice"])} ${this.sentence().trim()}\n`;
		}
	}
}
