/** Small formatting helpers shared by the renderers. */

/** An ISO time as "2025-02-11 10:00:03" (UTC), or the input when it is not a time. */
export function shortTime(iso: string | undefined): string {
	if (!iso) return "";
	const date = new Date(iso);
	if (Number.isNaN(date.getTime())) return iso;
	return date.toISOString().replace("T", " ").slice(0, 19);
}

/** 1234567 → "1.2 MB". */
export function formatBytes(bytes: number): string {
	if (bytes < 1024) return `${bytes} B`;
	const units = ["KB", "MB", "GB", "TB"];
	let value = bytes / 1024;
	let unit = 0;
	while (value >= 1024 && unit < units.length - 1) {
		value /= 1024;
		unit++;
	}
	return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

/** 1234567 → "1,234,567" (as `toLocaleString("en-US")` writes it). */
export function formatCount(value: number): string {
	// Whole numbers are grouped here: the first toLocaleString of a process sets up ICU's number
	// formatting, some 20 ms of a command that prints a few counts (stats).
	if (!Number.isSafeInteger(value)) return value.toLocaleString("en-US");
	return String(value).replace(/\B(?=(\d{3})+$)/g, ",");
}

/** A cost in USD: "$0.0123". */
export function formatCost(value: number): string {
	if (value === 0) return "$0";
	return `$${value < 0.01 ? value.toFixed(4) : value.toFixed(2)}`;
}

/** The first line of `text`, cut to `max` characters. */
export function firstLine(text: string, max = 80): string {
	const line = text.trim().split("\n")[0] ?? "";
	const chars = [...line];
	const cut = chars.length > max ? `${chars.slice(0, max - 1).join("")}…` : line;
	return text.trim().includes("\n") && chars.length <= max ? `${cut} …` : cut;
}

/** Every line of `text` indented by `prefix`. */
export function indent(text: string, prefix = "  "): string {
	return text
		.split("\n")
		.map((line) => prefix + line)
		.join("\n");
}
