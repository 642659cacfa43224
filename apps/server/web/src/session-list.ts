import type { SessionMetadata } from "@agent/session-format";
import { h, replaceChildren } from "./dom.js";
import { relativeTime } from "./format.js";

export interface SessionListOptions {
	sessions: readonly SessionMetadata[];
	currentId: string | undefined;
	/** Sessions with a turn queued or running. */
	busy: ReadonlySet<string>;
	/** What the list was filtered by, for the empty message. */
	search: string;
	onOpen: (id: string) => void;
}

/** Renders the session list, newest activity first as the server sorted it. */
export function renderSessionList(list: HTMLElement, options: SessionListOptions): void {
	if (options.sessions.length === 0) {
		const text = options.search ? `No session matches “${options.search}”.` : "No sessions yet.";
		replaceChildren(list, h("li", { class: "hint" }, text));
		return;
	}
	replaceChildren(
		list,
		...options.sessions.map((session) => {
			const badges = [
				session.source === "cron" ? h("span", { class: "badge" }, `cron ${session.cronJobId ?? ""}`.trim()) : null,
				session.archivedAt ? h("span", { class: "badge" }, "archived") : null,
				session.forkedFrom ? h("span", { class: "badge" }, "fork") : null,
				options.busy.has(session.id) ? h("span", { class: "badge busy", title: "a turn is running" }, "working") : null,
			];
			return h(
				"li",
				null,
				h(
					"button",
					{
						type: "button",
						class: `session-item${session.id === options.currentId ? " current" : ""}`,
						"data-testid": "session-item",
						"data-id": session.id,
						onclick: () => options.onOpen(session.id),
					},
					h("span", { class: "session-title" }, session.name ?? "Untitled session", ...badges),
					h(
						"span",
						{ class: "session-sub" },
						`${session.messageCount} messages · ${session.model || "default model"} · ${relativeTime(session.lastMessageAt)}`,
					),
				),
			);
		}),
	);
}
