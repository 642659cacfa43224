import { listingTime, modelLabel, type SessionMetadata } from "@agent/session-format/reading";
import type { Api } from "./api.js";
import { h } from "./dom.js";
import { fullDate, relativeTime } from "./format.js";
import { VirtualList } from "./virtual-list.js";

type ListRow = { kind: "session"; session: SessionMetadata } | { kind: "hint"; text: string };

const PAGE = 100;

/** The server's order (S7.5): newest activity first, then the greater id. */
function newestFirst(a: SessionMetadata, b: SessionMetadata): number {
	return listingTime(b) - listingTime(a) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}
/** Load the next page when the view is this close to the end of what is loaded, in px. */
const PREFETCH_PX = 800;

export interface SessionListHandlers {
	onOpen(id: string): void;
	currentId(): string | undefined;
	/** Sessions with a turn queued or running. */
	busy: ReadonlySet<string>;
	onError(message: string): void;
}

/**
 * The session list, newest activity first as the server sorts it: virtualized, and loading the
 * next page as the view nears its end (one continuous scroll over thousands of sessions).
 * Arrow keys move between sessions, Enter opens one.
 */
export class SessionList {
	private sessions: SessionMetadata[] = [];
	private nextCursor: string | undefined;
	private filter = { search: "", archived: false };
	private request = 0;
	private loadingMore = false;
	private readonly list: VirtualList<ListRow>;

	constructor(
		scroller: HTMLElement,
		private readonly api: Api,
		private readonly handlers: SessionListHandlers,
	) {
		this.list = new VirtualList<ListRow>({
			scroller,
			keyOf: (row) => (row.kind === "session" ? row.session.id : "hint"),
			estimateSize: () => 61,
			render: (row) => this.renderRow(row),
			onChange: () => {
				this.maybeLoadMore();
				this.syncTabStop();
			},
		});
		scroller.addEventListener("keydown", (event) => this.onKey(event));
		scroller.addEventListener("focusin", (event) => {
			const id = (event.target as HTMLElement).closest<HTMLElement>("[data-id]")?.dataset.id;
			if (id) this.tabStop = id;
			this.syncTabStop();
		});
	}

	/** The session the list's one Tab stop is on: the one last focused, else the open one, else the first. */
	private tabStop: string | undefined;

	/** The ids of the sessions listed (the Tab stop is one of them). */
	private ids = new Set<string>();

	/** The list is one Tab stop (arrow keys move within it): only that session's button takes Tab. */
	private syncTabStop(): void {
		const ids = this.ids;
		const current = this.handlers.currentId();
		const stop =
			(this.tabStop && ids.has(this.tabStop) ? this.tabStop : undefined) ??
			(current && ids.has(current) ? current : undefined) ??
			this.sessions[0]?.id;
		let drawn = false;
		for (const [key, row] of this.list.mountedRows()) {
			const button = row.querySelector<HTMLButtonElement>("button");
			if (!button) continue;
			button.tabIndex = key === stop ? 0 : -1;
			drawn ||= key === stop;
		}
		// The stop scrolled out of view: the first session drawn takes Tab instead.
		if (!drawn) {
			const first = this.list.mountedRows().next();
			const button = first.done ? undefined : first.value[1].querySelector<HTMLButtonElement>("button");
			if (button) button.tabIndex = 0;
		}
	}

	/** Loads the first page for a filter (or the current one again). */
	async reload(filter: { search: string; archived: boolean } = this.filter): Promise<void> {
		this.filter = filter;
		const request = ++this.request;
		try {
			const page = await this.api.listSessions({ ...filter, limit: PAGE });
			if (request !== this.request) return;
			this.sessions = page.sessions;
			this.nextCursor = page.nextCursor;
			this.show();
		} catch (error) {
			this.handlers.onError((error as Error).message);
		}
	}

	/**
	 * Sessions' new metadata (from the live feed: a rename, a reply, an archive, a session made
	 * elsewhere): each moved to its place by activity, taken in when it now matches the filter,
	 * taken out when it no longer does; sorted once, as the server sorts, so the pages loaded later fit.
	 */
	update(changed: readonly SessionMetadata[]): void {
		const index = new Map(this.sessions.map((session, at) => [session.id, at]));
		const last = this.sessions.at(-1);
		const removed = new Set<string>();
		for (const metadata of changed) {
			const at = index.get(metadata.id);
			const matches = this.matches(metadata);
			if (at !== undefined && !matches) removed.add(metadata.id);
			else if (at !== undefined) this.sessions[at] = metadata;
			// Beyond the pages loaded (older than the last one), it comes with its page.
			else if (matches && (this.nextCursor === undefined || !last || newestFirst(metadata, last) <= 0)) {
				index.set(metadata.id, this.sessions.push(metadata) - 1);
			}
		}
		if (removed.size > 0) this.sessions = this.sessions.filter((session) => !removed.has(session.id));
		this.sessions.sort(newestFirst);
		this.show(changed.map((metadata) => metadata.id));
	}

	/** A session deleted (from the live feed). */
	remove(id: string): void {
		const index = this.sessions.findIndex((session) => session.id === id);
		if (index < 0) return;
		this.sessions.splice(index, 1);
		this.show();
	}

	/** Whether the list's filter (the archived toggle, the search text) takes the session. */
	private matches(metadata: SessionMetadata): boolean {
		if (metadata.archivedAt && !this.filter.archived) return false;
		const search = this.filter.search.toLowerCase();
		return (
			search.length === 0 ||
			metadata.id.toLowerCase().includes(search) ||
			(metadata.name ?? "").toLowerCase().includes(search)
		);
	}

	/** Re-draws rows (the current session or the busy ones changed). */
	redraw(): void {
		this.list.refresh();
	}

	get loaded(): number {
		return this.sessions.length;
	}

	/** A loaded session's name, if it has one. */
	nameOf(id: string): string | undefined {
		return this.sessions.find((session) => session.id === id)?.name;
	}

	private show(changed?: string[]): void {
		this.ids = new Set(this.sessions.map((session) => session.id));
		const rows: ListRow[] = this.sessions.map((session) => ({ kind: "session", session }));
		if (rows.length === 0) {
			const search = this.filter.search;
			rows.push({ kind: "hint", text: search ? `No session matches “${search}”.` : "No sessions yet." });
		}
		this.list.setItems(rows);
		this.list.refresh(changed);
		this.maybeLoadMore();
	}

	private maybeLoadMore(): void {
		if (!this.nextCursor || this.loadingMore || this.list.distanceFromEnd() > PREFETCH_PX) return;
		const cursor = this.nextCursor;
		const request = this.request;
		this.loadingMore = true;
		this.api
			.listSessions({ ...this.filter, cursor, limit: PAGE })
			.then((page) => {
				if (request !== this.request) return;
				const known = new Set(this.sessions.map((session) => session.id));
				this.sessions.push(...page.sessions.filter((session) => !known.has(session.id)));
				this.nextCursor = page.nextCursor;
				this.show([]);
			})
			.catch((error: Error) => this.handlers.onError(error.message))
			.finally(() => {
				this.loadingMore = false;
			});
	}

	private renderRow(row: ListRow): HTMLElement {
		if (row.kind === "hint") return h("div", { class: "hint" }, row.text);
		const session = row.session;
		const badges = [
			session.source === "cron" ? h("span", { class: "badge" }, `cron ${session.cronJobId ?? ""}`.trim()) : null,
			session.archivedAt ? h("span", { class: "badge" }, "archived") : null,
			session.forkedFrom ? h("span", { class: "badge" }, "fork") : null,
			this.handlers.busy.has(session.id)
				? h("span", { class: "badge busy", title: "a turn is running" }, "working")
				: null,
		];
		const current = session.id === this.handlers.currentId();
		return h(
			"div",
			{ class: "session-row" },
			h(
				"button",
				{
					type: "button",
					class: `session-item${current ? " current" : ""}`,
					"data-testid": "session-item",
					"data-id": session.id,
					"aria-current": current ? "true" : undefined,
					onclick: () => this.handlers.onOpen(session.id),
				},
				h(
					"span",
					{ class: "session-title" },
					h("span", { class: "title-text" }, session.name ?? "Untitled session"),
					...badges,
				),
				h(
					"span",
					{ class: "session-sub" },
					`${session.messageCount} messages · ${modelLabel(session.model) || "default model"} · `,
					h(
						"time",
						{
							datetime: session.lastMessageAt,
							title: `last activity ${fullDate(session.lastMessageAt)}\ncreated ${fullDate(session.createdAt)}`,
						},
						relativeTime(session.lastMessageAt),
					),
				),
			),
		);
	}

	/** Up/Down move the focus between sessions (scrolling it into view), Home/End to the ends. */
	private onKey(event: KeyboardEvent): void {
		const focused = (event.target as HTMLElement).closest<HTMLElement>("[data-id]");
		if (!focused) return;
		const index = this.sessions.findIndex((session) => session.id === focused.dataset.id);
		const target =
			event.key === "ArrowDown"
				? index + 1
				: event.key === "ArrowUp"
					? index - 1
					: event.key === "Home"
						? 0
						: event.key === "End"
							? this.sessions.length - 1
							: undefined;
		if (target === undefined) return;
		event.preventDefault();
		this.focusSession(Math.max(0, Math.min(this.sessions.length - 1, target)));
	}

	/** Focuses the first session (from the search box's Down key). */
	focusFirst(): void {
		if (this.sessions.length > 0) this.focusSession(0);
	}

	private focusSession(index: number): void {
		const id = this.sessions[index]?.id;
		if (!id) return;
		this.list.scrollToKey(id, "center");
		const focus = (tries: number) => {
			const button = this.list.rowOf(id)?.querySelector<HTMLButtonElement>("button");
			if (button) button.focus({ preventScroll: true });
			else if (tries > 0) requestAnimationFrame(() => focus(tries - 1));
		};
		focus(5);
	}
}
