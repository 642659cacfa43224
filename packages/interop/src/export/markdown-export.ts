import type { ContentBlock } from "@agent/session-format";
import { activePath } from "./active-path.js";
import { escapeMarkdownHtml } from "./markdown-html.js";
import type { ExportInfo, RecordSource } from "./record-source.js";
import { base64Bytes, headerFacts, hiddenNote, type TranscriptItem, transcriptItem } from "./transcript-items.js";

/**
 * A Markdown transcript of the active branch, one chunk per record: messages with their
 * thinking, tool calls and results; compaction and branch summaries; model, name and label
 * changes as notes. Records on other branches are counted, not shown. Raw HTML in any text from
 * the session is escaped (see escapeMarkdownHtml); the only HTML is our own `<sub>` line.
 */
export async function* markdownChunks(source: RecordSource, info: ExportInfo): AsyncGenerator<string> {
	const { onPath, total } = await activePath(source, info.leafSeq);
	const { title, facts } = headerFacts(info);
	yield escapeMarkdownHtml(
		`# ${oneLine(title)}\n\n${facts.map(([key, value]) => `- **${key}:** ${oneLine(value)}`).join("\n")}\n`,
	);
	let custom = 0;
	for await (const record of source()) {
		if (!onPath.has(record.seq)) continue;
		const item = transcriptItem(record);
		if (item) yield `\n${markdownItem(item)}`;
		else custom++;
	}
	const note = hiddenNote(total - onPath.size, custom);
	if (note) yield `\n---\n\n*${note}*\n`;
}

/**
 * One record: its heading, our `<sub>` line, its body. The heading and the body are escaped apart,
 * each a complete block, so our own `<sub>` stays HTML and nothing of theirs does.
 */
function markdownItem(item: TranscriptItem): string {
	const where = `<sub>#${item.seq} · ${oneLine(item.timestamp).replaceAll("<", "&lt;")}</sub>`;
	const entry = (heading: string, body: string) =>
		`${escapeMarkdownHtml(`### ${oneLine(heading)}`)}\n${where}\n\n${escapeMarkdownHtml(body)}`;
	switch (item.kind) {
		case "message":
			return entry(item.label, blocksMarkdown(item.blocks, item.role === "toolResult"));
		case "custom_message":
			return entry(`Custom message: ${item.customType}`, blocksMarkdown(item.blocks, false));
		case "summary": {
			const files = item.files && item.files.length > 0 ? `\n\nFiles: ${item.files.map(code).join(", ")}` : "";
			return entry(item.title, `${quote(item.summary)}${files}\n`);
		}
		case "note":
			return `${escapeMarkdownHtml(`*${oneLine(item.text)}*`)} ${where}\n`;
	}
}

function blocksMarkdown(blocks: readonly ContentBlock[], asOutput: boolean): string {
	const parts: string[] = [];
	for (const block of blocks) {
		switch (block.type) {
			case "text":
				parts.push(asOutput ? fence(block.text, "text") : block.text);
				break;
			case "thinking":
				parts.push(block.redacted ? "> *(redacted thinking)*" : quote(`*Thinking:* ${block.thinking}`));
				break;
			case "toolCall":
				parts.push(
					`**Tool call** ${code(block.name)} (${code(block.id)})\n\n${fence(JSON.stringify(block.arguments, null, 2), "json")}`,
				);
				break;
			case "image":
				parts.push(`*[image: ${oneLine(block.mimeType)}, ${base64Bytes(block.data)} bytes]*`);
				break;
		}
	}
	return `${parts.join("\n\n")}\n`;
}

/** A fenced code block whose fence is longer than any run of backticks inside. */
export function fence(text: string, language: string): string {
	const ticks = "`".repeat(Math.max(3, longestBacktickRun(text) + 1));
	return `${ticks}${language}\n${text}\n${ticks}`;
}

function code(text: string): string {
	const longest = longestBacktickRun(text);
	const ticks = "`".repeat(longest + 1);
	return `${ticks}${longest > 0 ? ` ${text} ` : text}${ticks}`;
}

/** The longest run of backticks in `text`: one pass (spreading every run into Math.max overflowed the stack). */
function longestBacktickRun(text: string): number {
	let longest = 0;
	let run = 0;
	for (let i = 0; i < text.length; i++) {
		run = text.charCodeAt(i) === 96 ? run + 1 : 0;
		if (run > longest) longest = run;
	}
	return longest;
}

function quote(text: string): string {
	return text
		.split("\n")
		.map((line) => (line === "" ? ">" : `> ${line}`))
		.join("\n");
}

/**
 * The lines of `text`, trimmed, without blank ones, joined by spaces: linear in the length. (The
 * regex `\s*\n\s*` it replaces backtracked quadratically on a long run of spaces: 100,000 took 12 s.)
 */
function oneLine(text: string): string {
	const kept: string[] = [];
	for (const line of text.split("\n")) {
		const trimmed = line.trim();
		if (trimmed.length > 0) kept.push(trimmed);
	}
	return kept.join(" ");
}
