import type { SessionEvent } from "@agent/session";
import type { SessionMetadata } from "@agent/session-format/reading";
import { Api } from "./api.js";
import { byId } from "./dom.js";
import { EventSocket } from "./event-socket.js";
import { MessageSearch } from "./message-search.js";
import { SessionList } from "./session-list.js";
import { SessionView } from "./session-view.js";
import { UsageDialog } from "./usage-dialog.js";

const api = new Api();
const el = {
	search: byId<HTMLInputElement>("search"),
	archived: byId<HTMLInputElement>("show-archived"),
	create: byId<HTMLButtonElement>("new-session"),
	connection: byId("connection"),
	tokenDialog: byId<HTMLDialogElement>("token-dialog"),
	tokenForm: byId<HTMLFormElement>("token-form"),
	tokenInput: byId<HTMLInputElement>("token-input"),
};

const busy = new Set<string>();
let defaultModel: string | undefined;

// A 401 opens the token dialog; every request waiting on it retries once a token is entered, and
// the sockets (which cannot see a 401) reconnect at once with it.
api.onUnauthorized = () =>
	new Promise<void>((resolve) => {
		el.tokenForm.addEventListener(
			"submit",
			() => {
				api.token = el.tokenInput.value.trim();
				resolve();
				feed.retryNow();
				view.retryConnection();
			},
			{ once: true },
		);
		if (!el.tokenDialog.open) el.tokenDialog.showModal();
	});

const view = new SessionView(api, (hash, replace = false) => {
	if (replace) history.replaceState(null, "", hash);
	else location.hash = hash;
	if (replace) route();
});

const list = new SessionList(byId("session-list"), api, {
	onOpen: (id) => {
		location.hash = `#/s/${id}`;
	},
	currentId: () => view.id(),
	busy,
	onError: (message) => {
		el.connection.textContent = message;
	},
});

new UsageDialog(api);

const messageSearch = new MessageSearch(byId("message-results"), api, (id) => list.nameOf(id));

/**
 * #/ (the list), #/new (a new session), #/s/ID or #/s/ID/SEQ (a session, at a message), and
 * #/s/ID/SEQ?q=TEXT (at a message found by a search, with the text marked).
 */
function route(): void {
	const hash = location.hash;
	if (hash === "#/new") {
		view.openDraft(defaultModel);
	} else {
		const match = /^#\/s\/([^/?]+)(?:\/(\d+))?(?:\?q=(.*))?$/.exec(hash);
		if (match) {
			const id = match[1] as string;
			const highlight = match[3] ? safeDecode(match[3]) : undefined;
			const focus = match[2] ? { seq: Number(match[2]), ...(highlight ? { highlight } : {}) } : undefined;
			if (/^[0-9A-HJKMNP-TV-Z]{26}$/.test(id)) void view.open(id, focus);
			else {
				void view.open(undefined);
				view.showNotFound("The link does not name a session.");
			}
		} else void view.open(undefined);
	}
	list.redraw();
}

function safeDecode(text: string): string {
	try {
		return decodeURIComponent(text);
	} catch {
		return text;
	}
}

function reloadList(): void {
	void list.reload({ search: el.search.value.trim(), archived: el.archived.checked });
}

/** The search box filters the sessions by name and finds messages by their text. */
function search(): void {
	reloadList();
	void messageSearch.search(el.search.value.trim(), el.archived.checked);
}

const updated = new Map<string, SessionMetadata>();
let updateFrame: number | undefined;

function onFeedEvent(event: SessionEvent): void {
	switch (event.type) {
		case "turn.queued":
		case "turn.started":
			busy.add(event.sessionId);
			list.redraw();
			break;
		case "turn.completed":
		case "turn.failed":
			busy.delete(event.sessionId);
			list.redraw();
			break;
		case "session.updated":
		case "session.created":
			// Moved to its place (or in, or out, as the filter says), a burst of them at once.
			updated.set(event.sessionId, event.metadata);
			if (updateFrame === undefined) {
				updateFrame = requestAnimationFrame(() => {
					updateFrame = undefined;
					list.update([...updated.values()]);
					updated.clear();
				});
			}
			break;
		case "session.deleted":
			list.remove(event.sessionId);
			break;
		default:
			break;
	}
}

let searchTimer: ReturnType<typeof setTimeout> | undefined;
el.search.addEventListener("input", () => {
	if (searchTimer) clearTimeout(searchTimer);
	searchTimer = setTimeout(search, 250);
});
el.search.addEventListener("keydown", (event) => {
	if (event.key === "ArrowDown") {
		event.preventDefault();
		list.focusFirst();
	}
	if (event.key === "Escape") {
		el.search.value = "";
		search();
		el.search.blur();
	}
});
el.archived.addEventListener("change", search);
el.create.addEventListener("click", () => {
	location.hash = "#/new";
});

// "/" searches (unless typing somewhere); Shift+Esc goes to the message box; Ctrl/Cmd+F finds in
// the whole open session; Esc lets go of the selected message.
document.addEventListener("keydown", (event) => {
	const target = event.target as HTMLElement;
	const typing = target.closest("input, textarea, select, [contenteditable]") !== null;
	const dialogOpen = document.querySelector("dialog[open]") !== null;
	if (event.key === "/" && !typing && !event.ctrlKey && !event.metaKey) {
		event.preventDefault();
		el.search.focus();
		el.search.select();
	}
	if (event.key === "Escape" && event.shiftKey && !dialogOpen && view.isOpen()) {
		event.preventDefault();
		view.composer.focus(true);
		return;
	}
	if (
		(event.ctrlKey || event.metaKey) &&
		!event.altKey &&
		event.key.toLowerCase() === "f" &&
		view.isOpen() &&
		!dialogOpen
	) {
		event.preventDefault();
		view.find();
		return;
	}
	if (event.key === "Escape" && !typing && view.selectedSeq() !== null && !dialogOpen) {
		view.select(null);
	}
});

window.addEventListener("hashchange", route);

const feed = new EventSocket("/api/events", {
	token: () => api.token,
	onOpen: reloadList,
	onEvent: onFeedEvent,
	onStatus: (status) => {
		el.connection.textContent = status === "open" ? "live" : "reconnecting…";
		el.connection.classList.toggle("live", status === "open");
	},
});

api
	.models()
	.then((models) => {
		defaultModel = models.default;
		view.setModels(models);
	})
	.catch(() => {});
route();
// Load at once too: a server that needs a token answers 401 here, which asks for it.
reloadList();
