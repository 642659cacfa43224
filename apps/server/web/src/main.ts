import type { SessionEvent } from "@agent/session";
import type { SessionMetadata } from "@agent/session-format";
import { Api } from "./api.js";
import { byId } from "./dom.js";
import { EventSocket } from "./event-socket.js";
import { renderSessionList } from "./session-list.js";
import { SessionView } from "./session-view.js";

const api = new Api();
const el = {
	list: byId("session-list"),
	search: byId<HTMLInputElement>("search"),
	archived: byId<HTMLInputElement>("show-archived"),
	more: byId<HTMLButtonElement>("more-sessions"),
	create: byId<HTMLButtonElement>("new-session"),
	connection: byId("connection"),
	tokenDialog: byId<HTMLDialogElement>("token-dialog"),
	tokenForm: byId<HTMLFormElement>("token-form"),
	tokenInput: byId<HTMLInputElement>("token-input"),
};

let sessions: SessionMetadata[] = [];
let nextCursor: string | undefined;
const busy = new Set<string>();

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

const view = new SessionView(api, (id) => {
	location.hash = id ? `#/s/${id}` : "#/";
});

function idFromHash(): string | undefined {
	const match = /^#\/s\/([0-9A-HJKMNP-TV-Z]{26})$/.exec(location.hash);
	return match?.[1];
}

function renderList(): void {
	renderSessionList(el.list, {
		sessions,
		currentId: view.currentId,
		busy,
		search: el.search.value.trim(),
		onOpen: (id) => {
			location.hash = `#/s/${id}`;
		},
	});
	el.more.hidden = nextCursor === undefined;
}

let listRequest = 0;
async function loadSessions(append = false): Promise<void> {
	const request = ++listRequest;
	try {
		const page = await api.listSessions({
			search: el.search.value.trim(),
			archived: el.archived.checked,
			...(append && nextCursor ? { cursor: nextCursor } : {}),
		});
		if (request !== listRequest) return;
		sessions = append ? [...sessions, ...page.sessions] : page.sessions;
		nextCursor = page.nextCursor;
		renderList();
	} catch (error) {
		el.connection.textContent = (error as Error).message;
	}
}

let reloadTimer: ReturnType<typeof setTimeout> | undefined;
function reloadSoon(): void {
	if (reloadTimer) clearTimeout(reloadTimer);
	reloadTimer = setTimeout(() => void loadSessions(), 150);
}

function onFeedEvent(event: SessionEvent): void {
	switch (event.type) {
		case "turn.queued":
		case "turn.started":
			busy.add(event.sessionId);
			renderList();
			break;
		case "turn.completed":
		case "turn.failed":
			busy.delete(event.sessionId);
			renderList();
			break;
		case "session.updated": {
			const index = sessions.findIndex((session) => session.id === event.sessionId);
			if (index >= 0) {
				sessions[index] = event.metadata;
				sessions.sort((a, b) => b.lastMessageAt.localeCompare(a.lastMessageAt));
				renderList();
			}
			reloadSoon();
			break;
		}
		case "session.created":
		case "session.deleted":
			reloadSoon();
			break;
		default:
			break;
	}
}

let searchTimer: ReturnType<typeof setTimeout> | undefined;
el.search.addEventListener("input", () => {
	if (searchTimer) clearTimeout(searchTimer);
	searchTimer = setTimeout(() => void loadSessions(), 200);
});
el.archived.addEventListener("change", () => void loadSessions());
el.more.addEventListener("click", () => void loadSessions(true));
el.create.addEventListener("click", async () => {
	el.create.disabled = true;
	try {
		const created = await api.createSession();
		location.hash = `#/s/${created.id}`;
		byId<HTMLTextAreaElement>("message").focus();
	} catch (error) {
		el.connection.textContent = (error as Error).message;
	} finally {
		el.create.disabled = false;
	}
});

window.addEventListener("hashchange", () => {
	view.open(idFromHash());
	// Load at once too: a server that needs a token answers 401 here, which asks for it.
	void loadSessions();
	renderList();
});

const feed = new EventSocket("/api/events", {
	token: () => api.token,
	onOpen: () => void loadSessions(),
	onEvent: onFeedEvent,
	onStatus: (status) => {
		el.connection.textContent = status === "open" ? "live" : "reconnecting…";
		el.connection.classList.toggle("live", status === "open");
	},
});
view.open(idFromHash());
// Load at once too: a server that needs a token answers 401 here, which asks for it.
void loadSessions();
