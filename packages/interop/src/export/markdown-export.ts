import type { ContentBlock } from "@agent/session-format";
import { activePath } from "./active-path.js";
import type { ExportInfo, RecordSource } from "./record-source.js";
import { base64Bytes, headerFacts, hiddenNote, type TranscriptItem, transcriptItem } from "./transcript-items.js";

/**
 * A Markdown transcript of the active branch, one chunk per record: messages with their
 * thinking, tool calls and results; compaction and branch summaries; model, name and label
 * changes as notes. Records on other branches are counted, not shown.
 */
export async function* markdownChunks(source: RecordSource, info: ExportInfo): AsyncGenerator<string> {
	const { onPath, total } = await activePath(source, info.leafSeq);
	const { title, facts } = headerFacts(info);
	yield `# ${oneLine(title)}\n\n${facts.map(([key, value]) => `- **${key}:** ${oneLine(value)}`).join("\n")}\n`;
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

function markdownItem(item: TranscriptItem): string {
	const where = `<sub>#${item.seq} · ${item.timestamp}</sub>`;
	switch (item.kind) {
		case "message":
			return `### ${oneLine(item.label)}\n${where}\n\n${blocksMarkdown(item.blocks, item.role === "toolResult")}`;
		case "custom_message":
			return `### Custom message: ${oneLine(item.customType)}\n${where}\n\n${blocksMarkdown(item.blocks, false)}`;
		case "summary": {
			const files = item.files && item.files.length > 0 ? `\n\nFiles: ${item.files.map(code).join(", ")}` : "";
			return `### ${oneLine(item.title)}\n${where}\n\n${quote(item.summary)}${files}\n`;
		}
		case "note":
			return `*${oneLine(item.text)}* ${where}\n`;
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
	const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
	const ticks = "`".repeat(Math.max(3, longest + 1));
	return `${ticks}${language}\n${text}\n${ticks}`;
}

function code(text: string): string {
	const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
	const ticks = "`".repeat(longest + 1);
	return `${ticks}${longest > 0 ? ` ${text} ` : text}${ticks}`;
}

function quote(text: string): string {
	return text
		.split("\n")
		.map((line) => (line === "" ? ">" : `> ${line}`))
		.join("\n");
}

function oneLine(text: string): string {
	return text.replace(/\s*\n\s*/g, " ");
}
