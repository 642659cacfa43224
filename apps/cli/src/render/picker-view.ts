import { type SessionMetadata, truncateText } from "@agent/session-format/reading";
import type { Paint } from "../io/colors.js";
import { formatCount } from "./format.js";

/** The picker's state: the filter typed so far, the sessions it keeps, and the highlighted one. */
export interface PickerState {
	filter: string;
	matches: SessionMetadata[];
	selected: number;
}

/** The sessions whose name, first message or id contain the filter (case-insensitive), in list order. */
export function filterSessions(sessions: readonly SessionMetadata[], filter: string): SessionMetadata[] {
	const needle = filter.trim().toLowerCase();
	if (needle.length === 0) return [...sessions];
	return sessions.filter((session) =>
		[session.name, session.firstMessage, session.id].some((text) => text?.toLowerCase().includes(needle)),
	);
}

/** "just now", "5m ago", "3h ago", "2d ago": how long since `iso`. */
export function ageOf(iso: string, now: number): string {
	const seconds = Math.max(0, (now - Date.parse(iso)) / 1000);
	if (!Number.isFinite(seconds) || seconds < 60) return "just now";
	if (seconds < 3600) return `${Math.floor(seconds / 60)}m ago`;
	if (seconds < 86_400) return `${Math.floor(seconds / 3600)}h ago`;
	return `${Math.floor(seconds / 86_400)}d ago`;
}

/**
 * The picker's lines: the filter prompt, then at most `rows` sessions (scrolled so the highlighted
 * one shows), each its title (name, else first message), age and message count, cut to `width`.
 */
export function renderPicker(state: PickerState, options: { rows: number; width: number; now: number; paint: Paint }) {
	const { paint, rows, width } = options;
	const lines = [
		`${paint("bold", "pick a session")} ${paint("gray", "(type to filter, ↑/↓, Enter picks, Esc cancels)")} ${paint("cyan", ">")} ${state.filter}`,
	];
	if (state.matches.length === 0) {
		lines.push(paint("dim", "  no session matches"));
		return lines;
	}
	const first = Math.max(0, Math.min(state.selected - rows + 1, state.matches.length - rows));
	for (let i = first; i < Math.min(state.matches.length, first + rows); i++) {
		const session = state.matches[i] as SessionMetadata;
		const title = session.name ?? session.firstMessage ?? "(unnamed)";
		const facts = `${ageOf(session.lastMessageAt, options.now)} · ${formatCount(session.messageCount)} msgs · ${session.id.slice(0, 10)}`;
		const room = Math.max(10, width - facts.length - 6);
		const shown = truncateText(title, room).padEnd(room);
		const line = `${i === state.selected ? "▸" : " "} ${shown}  ${facts}`;
		lines.push(i === state.selected ? paint("bold", line) : line);
	}
	if (state.matches.length > rows) lines.push(paint("dim", `  ${state.matches.length} sessions`));
	return lines;
}
