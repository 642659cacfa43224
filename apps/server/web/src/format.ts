import { truncateText } from "@agent/session-format/reading";

/** "just now", "5 min ago", "3 h ago", or a date. */
export function relativeTime(iso: string, now = Date.now()): string {
	const time = Date.parse(iso);
	if (Number.isNaN(time)) return "";
	const seconds = Math.max(0, Math.round((now - time) / 1000));
	if (seconds < 45) return "just now";
	if (seconds < 3600) return `${Math.round(seconds / 60)} min ago`;
	if (seconds < 86_400) return `${Math.round(seconds / 3600)} h ago`;
	if (seconds < 7 * 86_400) return `${Math.round(seconds / 86_400)} d ago`;
	return new Date(time).toLocaleDateString();
}

/** 1234 → "1.2k", 1234567 → "1.2M". */
export function compactNumber(value: number): string {
	if (value < 1000) return String(value);
	if (value < 1_000_000) return `${(value / 1000).toFixed(value < 10_000 ? 1 : 0)}k`;
	return `${(value / 1_000_000).toFixed(1)}M`;
}

/** The first line of a text, shortened to `max` characters. */
export function preview(text: string, max = 80): string {
	const line = text.trim().split("\n")[0] ?? "";
	return truncateText(line, max);
}

/** A tool call's arguments as one short line. */
export function argumentsPreview(args: Record<string, unknown>, max = 90): string {
	const json = JSON.stringify(args) ?? "";
	return truncateText(json, max);
}

/** A full local date and time, for tooltips: "Tue, 3 Feb 2026, 14:05:09". */
export function fullDate(iso: string): string {
	const time = Date.parse(iso);
	if (Number.isNaN(time)) return iso;
	return new Date(time).toLocaleString(undefined, { dateStyle: "full", timeStyle: "medium" });
}

/** The time of day, or the date and time when not today: "14:05", "3 Feb, 14:05". */
export function shortTime(iso: string, now = Date.now()): string {
	const time = Date.parse(iso);
	if (Number.isNaN(time)) return "";
	const date = new Date(time);
	const sameDay = new Date(now).toDateString() === date.toDateString();
	return sameDay
		? date.toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" })
		: date.toLocaleString(undefined, { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });
}

/** A cost in dollars: "$0.0042", "$1.27"; "" for none. */
export function formatCost(cost: number | undefined): string {
	if (!cost) return "";
	return cost < 0.01 ? `$${cost.toFixed(4)}` : `$${cost.toFixed(2)}`;
}
