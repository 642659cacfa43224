import { h } from "./dom.js";

/**
 * How a notice behaves: `info` (done, copied, stopped) fades after a few seconds; `progress`
 * (compacting, summarizing) stays until the next notice; `error` stays until closed or replaced.
 * Every notice can be closed.
 */
export type NoticeKind = "info" | "progress" | "error";

const FADE_MS = 6000;

/** The notice bar above the transcript. */
export class Notices {
	private readonly text = h("span", { class: "notice-text", "data-testid": "notice-text" });
	private readonly close = h(
		"button",
		// The × is drawn by the stylesheet, so the bar's text is the notice alone.
		{ type: "button", class: "notice-close", "aria-label": "Close the notice", title: "Close" },
	);
	private timer: ReturnType<typeof setTimeout> | undefined;

	constructor(private readonly bar: HTMLElement) {
		bar.replaceChildren(this.text, this.close);
		this.close.addEventListener("click", () => this.hide());
	}

	show(text: string, kind: NoticeKind = "info"): void {
		clearTimeout(this.timer);
		this.text.textContent = text;
		this.bar.classList.toggle("error", kind === "error");
		this.bar.classList.remove("fading");
		this.bar.setAttribute("role", kind === "error" ? "alert" : "status");
		this.bar.dataset.kind = kind;
		this.bar.hidden = false;
		if (kind === "info") {
			this.timer = setTimeout(() => {
				this.bar.classList.add("fading");
				this.timer = setTimeout(() => this.hide(), 400);
			}, FADE_MS);
		}
	}

	hide(): void {
		clearTimeout(this.timer);
		this.bar.hidden = true;
		this.bar.classList.remove("fading");
	}

	/** The text shown, or "" when no notice is. */
	get current(): string {
		return this.bar.hidden ? "" : (this.text.textContent ?? "");
	}
}
