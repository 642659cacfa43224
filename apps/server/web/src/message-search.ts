import { type Api, ApiError, type SearchHit } from "./api.js";
import { h, replaceChildren } from "./dom.js";
import { fullDate, relativeTime } from "./format.js";

const PAGE = 30;

/**
 * The messages found by the search box (server-side full-text search over message text), above
 * the sessions list: how many matched, a page of hits with their session's name, and "Show more"
 * for the next page. A hit opens its session at that message, with the words marked.
 */
export class MessageSearch {
	private request = 0;
	private text = "";
	private archived = false;
	private hits: SearchHit[] = [];
	private nextOffset: number | undefined;
	private total = 0;
	private totalIsMinimum = false;

	constructor(
		private readonly container: HTMLElement,
		private readonly api: Api,
		/** A session's name as the list knows it (for a hit the server could not name). */
		private readonly nameOf: (sessionId: string) => string | undefined,
	) {}

	async search(text: string, archived: boolean): Promise<void> {
		const request = ++this.request;
		this.text = text;
		this.archived = archived;
		if (text.length < 2) {
			this.container.hidden = true;
			return;
		}
		try {
			const page = await this.api.search(text, { archived, limit: PAGE });
			if (request !== this.request) return;
			this.hits = page.hits;
			this.total = page.total ?? page.hits.length;
			this.totalIsMinimum = page.totalIsMinimum === true;
			this.nextOffset = page.nextOffset;
			this.show();
		} catch (error) {
			if (request !== this.request) return;
			// A server without message search (no such route): the search box still filters the sessions.
			if (error instanceof ApiError && error.status === 404) {
				this.container.hidden = true;
				return;
			}
			replaceChildren(this.container, h("p", { class: "hint error-text" }, (error as Error).message));
			this.container.hidden = false;
		}
	}

	private async more(): Promise<void> {
		const request = this.request;
		const offset = this.nextOffset;
		if (offset === undefined) return;
		try {
			const page = await this.api.search(this.text, { archived: this.archived, limit: PAGE, offset });
			if (request !== this.request) return;
			this.hits.push(...page.hits);
			this.nextOffset = page.nextOffset;
			this.show(offset);
		} catch (error) {
			this.container.append(h("p", { class: "hint error-text" }, (error as Error).message));
		}
	}

	private show(focusFrom?: number): void {
		const text = this.text;
		this.container.hidden = false;
		const count = `${this.total.toLocaleString("en-US")}${this.totalIsMinimum ? "+" : ""}`;
		const heading =
			this.total === 0
				? `No message holds “${text}”`
				: `${count} ${this.total === 1 ? "message matches" : "messages match"}${this.hits.length < this.total ? `; ${this.hits.length.toLocaleString("en-US")} shown` : ""}`;
		const hitLinks = this.hits.map((hit) => this.hitLink(hit, text));
		replaceChildren(
			this.container,
			h("h2", { class: "results-head", "data-testid": "search-count" }, heading),
			...hitLinks,
			this.nextOffset !== undefined
				? h(
						"button",
						{ type: "button", class: "link more-hits", "data-testid": "more-hits", onclick: () => void this.more() },
						`Show ${Math.min(PAGE, this.total - this.hits.length).toLocaleString("en-US")} more`,
					)
				: null,
		);
		if (focusFrom !== undefined) hitLinks[focusFrom]?.focus();
	}

	private hitLink(hit: SearchHit, text: string): HTMLElement {
		const name = hit.sessionName ?? this.nameOf(hit.sessionId) ?? "Untitled session";
		return h(
			"a",
			{
				class: "message-hit",
				href: `#/s/${hit.sessionId}/${hit.seq}?q=${encodeURIComponent(text)}`,
				"data-testid": "message-hit",
				title: `${name}, #${hit.seq}: ${fullDate(hit.timestamp)}`,
			},
			h(
				"span",
				{ class: "hit-where" },
				h("span", { class: "hit-session" }, name),
				` · #${hit.seq} · ${hit.role} · ${relativeTime(hit.timestamp)}`,
			),
			h("span", { class: "hit-snippet" }, ...markedSnippet(hit.snippet, text)),
		);
	}
}

/** The snippet with the searched text marked (as text nodes and <mark>, never HTML). */
function markedSnippet(snippet: string, text: string): Array<string | HTMLElement> {
	const needle = text.trim().replace(/\s+/g, " ").toLowerCase();
	const lower = snippet.toLowerCase();
	if (needle.length === 0 || lower.length !== snippet.length) return [snippet];
	const parts: Array<string | HTMLElement> = [];
	let from = 0;
	for (let at = lower.indexOf(needle); at >= 0; at = lower.indexOf(needle, from)) {
		if (at > from) parts.push(snippet.slice(from, at));
		parts.push(h("mark", { class: "hit" }, snippet.slice(at, at + needle.length)));
		from = at + needle.length;
	}
	if (from < snippet.length) parts.push(snippet.slice(from));
	return parts;
}
