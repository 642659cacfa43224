import { type ContentBlock, headOf, type StoredRecord } from "@agent/session-format/reading";
import { type Child, h } from "./dom.js";
import { argumentsPreview, preview } from "./format.js";
import { markdownElement } from "./markdown-view.js";

/** Image types shown inline (raster formats a browser decodes without running anything). */
const IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp", "image/avif", "image/bmp"]);
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Renders content blocks: text as Markdown, images as images (size-capped; a click enlarges
 * them), thinking folded, and each tool call folded with its result inside, when the result is
 * known (`results`, by call id): one unit, the arguments shown once.
 */
export function renderBlocks(blocks: readonly ContentBlock[], results?: ReadonlyMap<string, StoredRecord>): Child[] {
	return blocks.map((block) => {
		switch (block.type) {
			case "text":
				return markdownElement(block.text);
			case "thinking":
				return h(
					"details",
					{ class: "fold thinking" },
					h("summary", null, block.redacted ? "thinking (redacted)" : `thinking · ${preview(block.thinking, 60)}`),
					h("pre", null, block.thinking),
				);
			case "toolCall":
				return toolCall(block, results?.get(block.id));
			case "image":
				return imageElement(block.mimeType, block.data);
			default:
				return null;
		}
	});
}

/** An image block: shown when it is a raster image in base64, else a note saying what it is. */
export function imageElement(mimeType: string, data: string): HTMLElement {
	const type = mimeType.toLowerCase();
	const clean = data.replace(/\s+/g, "");
	if (!IMAGE_TYPES.has(type) || !BASE64.test(clean)) {
		return h("div", { class: "image-placeholder" }, `[image, ${headOf(mimeType, 60)}: not shown]`);
	}
	const image = h("img", {
		class: "message-image",
		alt: `image (${type.slice(6)}), click to enlarge`,
		title: "Click to enlarge",
		"data-testid": "message-image",
	});
	image.loading = "lazy";
	image.decoding = "async";
	image.src = `data:${type};base64,${clean}`;
	return h("figure", { class: "image" }, image);
}

function toolCall(block: Extract<ContentBlock, { type: "toolCall" }>, result: StoredRecord | undefined): HTMLElement {
	const output = result?.recordType === "message" ? result : undefined;
	const text = output ? resultText(output.content) : "";
	const status = !output ? "running or no result" : output.isError ? "failed" : "done";
	return h(
		"details",
		{ class: `fold tool-call${output?.isError ? " error" : ""}`, "data-tool": block.name, "data-testid": "tool-call" },
		h(
			"summary",
			null,
			h("span", { class: "tool-name" }, block.name),
			h("span", { class: "tool-args" }, ` ${argumentsPreview(block.arguments)}`),
			h(
				"span",
				{ class: `tool-status ${status.replace(/ .*/, "")}` },
				output ? (output.isError ? " · failed" : " · done") : "",
			),
			output ? h("span", { class: "tool-output-preview" }, ` → ${preview(text, 60)}`) : null,
		),
		h("div", { class: "tool-part" }, "arguments"),
		h("pre", null, JSON.stringify(block.arguments, null, 2)),
		...(output
			? [
					h("div", { class: "tool-part" }, output.isError ? `error (#${output.seq})` : `result (#${output.seq})`),
					h("pre", { class: output.isError ? "error-text" : undefined, "data-testid": "tool-output" }, text),
				]
			: []),
	);
}

function resultText(content: readonly ContentBlock[]): string {
	return content.map((block) => (block.type === "text" ? block.text : `[${block.type}]`)).join("\n");
}

/** A tool result on its own (its call is not on screen): its tool's name and first line; the whole output inside. */
export function renderToolResult(
	content: readonly ContentBlock[],
	options: { toolName?: string; isError?: boolean },
): HTMLElement {
	const text = resultText(content);
	return h(
		"details",
		{ class: `fold tool-result${options.isError ? " error" : ""}` },
		h(
			"summary",
			null,
			h("span", { class: "tool-name" }, options.isError ? "error from " : "result of ", options.toolName ?? "tool"),
			" ",
			preview(text, 70),
		),
		h("pre", null, text),
	);
}
