import { modelLabel, type SessionMetadata } from "@agent/session-format/reading";
import type { Paint } from "../io/colors.js";
import { formatCount, shortTime } from "./format.js";
import { renderTable } from "./table.js";

/** The session list as a table: newest activity first, as the store returns it. */
export function renderSessionTable(sessions: readonly SessionMetadata[], paint: Paint): string[] {
	return renderTable(
		[
			{ header: "ID" },
			{ header: "LAST ACTIVITY" },
			{ header: "MSGS", right: true },
			{ header: "MODEL", max: 32 },
			{ header: "SOURCE" },
			{ header: "NAME", max: 60 },
		],
		sessions.map((session) => [
			paint("bold", session.id),
			shortTime(session.lastMessageAt),
			formatCount(session.messageCount),
			modelLabel(session.model) || "-",
			session.source === "cron" ? `cron${session.cronJobId ? `:${session.cronJobId}` : ""}` : session.source,
			titleOf(session, paint) + (session.archivedAt ? paint("yellow", " [archived]") : ""),
		]),
	);
}

/** How a session is called: its name, else (dimmed) its first message, else "(unnamed)". */
export function titleOf(session: SessionMetadata, paint: Paint): string {
	if (session.name !== undefined) return session.name;
	return paint("dim", session.firstMessage ?? "(unnamed)");
}

/** One session's metadata as "key: value" lines. */
export function renderMetadata(session: SessionMetadata, paint: Paint): string[] {
	const rows: Array<[string, string | undefined]> = [
		["id", session.id],
		["name", session.name],
		["first message", session.name === undefined ? session.firstMessage : undefined],
		["cwd", session.cwd],
		["model", session.model ? modelLabel(session.model) : undefined],
		["source", session.source === "cron" ? `cron (job ${session.cronJobId ?? "?"})` : session.source],
		["created", shortTime(session.createdAt)],
		["last activity", shortTime(session.lastMessageAt)],
		["messages", formatCount(session.messageCount)],
		["records", formatCount(session.lastSeq)],
		["active leaf", session.leafSeq === undefined ? undefined : `#${session.leafSeq}`],
		["archived", session.archivedAt ? shortTime(session.archivedAt) : undefined],
		["forked from", session.forkedFrom ? `${session.forkedFrom.sessionId} at #${session.forkedFrom.seq}` : undefined],
		["system prompt", session.systemPromptOverride],
		["identity", session.identityKey],
		["uptime", session.uptimeSeconds === undefined ? undefined : `${session.uptimeSeconds.toFixed(1)} s`],
	];
	return rows
		.filter((row): row is [string, string] => row[1] !== undefined && row[1] !== "")
		.map(([key, value]) => `${paint("gray", `${key}:`.padEnd(15))}${value.replace(/\n/g, " ")}`);
}
