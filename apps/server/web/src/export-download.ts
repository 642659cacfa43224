import type { Api, ExportFormat } from "./api.js";
import { h } from "./dom.js";

const TYPES: Record<ExportFormat, [type: string, extension: string]> = {
	md: ["text/markdown", "md"],
	html: ["text/html", "html"],
	jsonl: ["application/x-ndjson", "jsonl"],
	pi: ["application/x-ndjson", "pi.jsonl"],
};

/** Exports a session as a download or to the clipboard; resolves with what to tell the user. */
export async function exportSession(api: Api, id: string, format: string, mode: "download" | "copy"): Promise<string> {
	const chosen = (format in TYPES ? format : "md") as ExportFormat;
	try {
		const text = await api.exportText(id, chosen);
		if (mode === "copy") {
			await navigator.clipboard.writeText(text);
			return `Copied (${text.length.toLocaleString()} characters).`;
		}
		const [type, extension] = TYPES[chosen];
		const url = URL.createObjectURL(new Blob([text], { type }));
		const link = h("a", { class: "hidden-link" });
		link.href = url;
		link.download = `session-${id}.${extension}`;
		document.body.append(link);
		link.click();
		link.remove();
		setTimeout(() => URL.revokeObjectURL(url), 10_000);
		return "Downloaded.";
	} catch (error) {
		return (error as Error).message;
	}
}
