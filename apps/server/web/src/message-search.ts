import { type Api, ApiError, type SearchHit } from "./api.js";
import { h, replaceChildren } from "./dom.js";
import { fullDate, relativeTime } from "./format.js";

/**
 * The messages found by the search box (server-side full-text search over message text), above
 * the sessions list; a hit opens its session at that message.
 */
export class MessageSearch {
	private request = 0;

	constructor(
		private readonly container: HTMLElement,
		private readonly api: Api,
		private readonly nameOf: (sessionId: string) => string | undefined,
	) {}

	async search(text: string, archived: boolean): Promise<void> {
		const request = ++this.request;
		if (text.length < 2) {
			this.container.hidden = true;
			return;
		}
		try {
			const { hits } = await this.api.search(text, { archived });
			if (request !== this.request) return;
			this.show(text, hits);
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

	private show(text: string, hits: readonly SearchHit[]): void {
		this.container.hidden = false;
		replaceChildren(
			this.container,
			h(
				"h2",
				{ class: "results-head" },
				hits.length === 0 ? `No message holds “${text}”` : `Messages (${hits.length})`,
			),
			...hits.map((hit) =>
				h(
					"a",
					{
						class: "message-hit",
						href: `#/s/${hit.sessionId}/${hit.seq}`,
						"data-testid": "message-hit",
						title: fullDate(hit.timestamp),
					},
					h(
						"span",
						{ class: "hit-where" },
						`${this.nameOf(hit.sessionId) ?? `session …${hit.sessionId.slice(-6)}`} · #${hit.seq} · ${hit.role} · ${relativeTime(hit.timestamp)}`,
					),
					h("span", { class: "hit-snippet" }, hit.snippet),
				),
			),
		);
	}
}
