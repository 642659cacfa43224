import { modelLabel, type SessionMetadata, type SessionTree } from "@agent/session-format/reading";
import { branchTips, leafLabel, shownAt } from "./branches.js";
import { byId, h, replaceChildren, setAvailable } from "./dom.js";
import { compactNumber, formatCost, fullDate, relativeTime } from "./format.js";
import type { SessionPort } from "./session-port.js";

/** What the header shows: the session and where the view is. */
export interface HeaderState {
	metadata: SessionMetadata | undefined;
	draft: boolean;
	tree: SessionTree;
	viewLeaf: number | null;
	selectedSeq: number | null;
	activeLeaf: number | null;
	contextTokens: number | undefined;
	compacting: boolean;
}

const NOT_SAVED = "Send the first message first: a new session is saved with it";

/**
 * The session's header: its name (click or Enter to rename), the facts line, the fork origin, the
 * branch picker and the action buttons. A button that cannot act now says why (its tooltip, and a
 * notice when pressed) instead of being silently disabled. On a phone the actions fold into a menu.
 */
export class SessionHeader {
	readonly el = {
		name: byId<HTMLButtonElement>("session-name"),
		meta: byId("session-meta"),
		forkedFrom: byId<HTMLAnchorElement>("forked-from"),
		branchLabel: byId("branch-picker-label"),
		branchPicker: byId<HTMLSelectElement>("branch-picker"),
		actions: byId("session-actions"),
		more: byId<HTMLButtonElement>("more-actions"),
		compact: byId<HTMLButtonElement>("compact"),
		fork: byId<HTMLButtonElement>("fork"),
		branch: byId<HTMLButtonElement>("branch"),
		exportButton: byId<HTMLButtonElement>("export"),
		archive: byId<HTMLButtonElement>("archive"),
		remove: byId<HTMLButtonElement>("delete"),
	};

	constructor(private readonly port: SessionPort) {
		const el = this.el;
		el.name.addEventListener("click", () => this.startRename());
		el.branchPicker.addEventListener("change", () => port.showBranch(Number(el.branchPicker.value)));
		// A button that cannot act says why, and does nothing else.
		byId("session").addEventListener(
			"click",
			(event) => {
				const button = (event.target as HTMLElement).closest?.("button[aria-disabled='true']");
				if (!button) return;
				event.stopImmediatePropagation();
				event.preventDefault();
				port.notify(button.getAttribute("data-reason") ?? "Not available now.", "info");
			},
			true,
		);
		el.more.addEventListener("click", () => this.toggleMenu());
		el.actions.addEventListener("click", (event) => {
			if ((event.target as HTMLElement).closest("button")) this.toggleMenu(false);
		});
		document.addEventListener("click", (event) => {
			const target = event.target as Node;
			if (!el.actions.contains(target) && !el.more.contains(target)) this.toggleMenu(false);
		});
		el.actions.addEventListener("keydown", (event) => {
			if (event.key === "Escape" && el.actions.classList.contains("open")) {
				event.preventDefault();
				this.toggleMenu(false);
				el.more.focus();
			}
		});
	}

	render(state: HeaderState): void {
		const el = this.el;
		this.renderAvailability(state);
		if (state.draft) {
			el.name.textContent = "New session";
			el.meta.textContent = "Nothing is saved until you send the first message.";
			el.forkedFrom.hidden = true;
			el.branchLabel.hidden = true;
			el.archive.textContent = "Archive";
			return;
		}
		const metadata = state.metadata;
		if (!metadata) return;
		el.name.textContent = metadata.name ?? "Untitled session";
		this.renderFacts(metadata, state.contextTokens);
		el.archive.textContent = metadata.archivedAt ? "Unarchive" : "Archive";
		const origin = metadata.forkedFrom;
		el.forkedFrom.hidden = !origin;
		if (origin) {
			el.forkedFrom.href = `#/s/${origin.sessionId}/${origin.seq}`;
			el.forkedFrom.textContent = `forked from ${origin.sessionId.slice(-6)} at #${origin.seq}`;
			el.forkedFrom.title = `Open the session this one was forked from (${origin.sessionId})`;
		}
		this.renderBranchPicker(state);
	}

	/** While loading: the name unknown yet. */
	loading(): void {
		this.el.name.textContent = "";
		this.el.meta.textContent = "Loading…";
	}

	private renderAvailability(state: HeaderState): void {
		const el = this.el;
		const saved = !state.draft;
		const empty = state.tree.size === 0;
		const at = state.selectedSeq ?? state.viewLeaf;
		setAvailable(
			el.compact,
			!saved
				? NOT_SAVED
				: state.compacting
					? "A compaction is running; Compact again once it is done"
					: empty
						? "Nothing to compact yet: the session has no messages"
						: undefined,
		);
		setAvailable(
			el.fork,
			!saved ? NOT_SAVED : empty ? "Nothing to fork yet: the session has no messages" : undefined,
			`Copy the conversation up to ${at === null ? "the end" : `#${at}`} into a new session`,
		);
		setAvailable(
			el.branch,
			!saved
				? NOT_SAVED
				: at === null
					? "Nothing to branch from yet: the session has no messages"
					: at === state.activeLeaf && state.selectedSeq === null
						? "Select an earlier message first (click it): Branch makes the next message continue from there. The conversation already continues from here."
						: undefined,
			`Continue the conversation from #${at ?? "…"} (the next message goes there)`,
		);
		for (const button of [el.exportButton, el.archive, el.remove]) setAvailable(button, saved ? undefined : NOT_SAVED);
	}

	private renderFacts(metadata: SessionMetadata, contextTokens: number | undefined): void {
		const metrics = metadata.metrics;
		const parts = [
			modelLabel(metadata.model) || "default model",
			`${metadata.messageCount} messages`,
			contextTokens !== undefined ? `≈${compactNumber(contextTokens)} tokens in context` : "",
			metrics && metrics.totalTokens > 0 ? `${compactNumber(metrics.totalTokens)} tokens used` : "",
			formatCost(metrics?.cost),
			metadata.source === "cron" ? `cron job ${metadata.cronJobId ?? ""}` : "",
			metadata.identityKey ? `identity ${metadata.identityKey}` : "",
			metadata.uptimeSeconds ? `active ${activeTime(metadata.uptimeSeconds)}` : "",
		].filter(Boolean);
		replaceChildren(
			this.el.meta,
			`${parts.join(" · ")} · created `,
			h(
				"time",
				{ datetime: metadata.createdAt, title: fullDate(metadata.createdAt) },
				relativeTime(metadata.createdAt),
			),
		);
	}

	private renderBranchPicker(state: HeaderState): void {
		const { tree, viewLeaf, activeLeaf } = state;
		const picker = this.el.branchPicker;
		const tips = branchTips(tree);
		this.el.branchLabel.hidden = tips.length < 2;
		if (tips.length < 2) return;
		const activeShown = activeLeaf === null ? null : shownAt(tree, activeLeaf);
		replaceChildren(
			picker,
			...tips.map((tip) =>
				h(
					"option",
					{ value: String(tip.leaf) },
					`#${tip.shown} · ${leafLabel(tree, tip.shown)}${tip.shown === activeShown ? " (active)" : ""}`,
				),
			),
		);
		const viewShown = viewLeaf === null ? null : shownAt(tree, viewLeaf);
		const current = tips.find((tip) => tip.shown === viewShown);
		if (current) picker.value = String(current.leaf);
		else if (viewLeaf !== null) {
			picker.append(h("option", { value: String(viewLeaf) }, `#${viewLeaf}`));
			picker.value = String(viewLeaf);
		}
	}

	private toggleMenu(open = !this.el.actions.classList.contains("open")): void {
		this.el.actions.classList.toggle("open", open);
		this.el.more.setAttribute("aria-expanded", String(open));
		if (open) this.el.actions.querySelector<HTMLButtonElement>("button:not([aria-disabled='true'])")?.focus();
	}

	/**
	 * The title becomes a text field: Enter or leaving the field saves, Esc cancels. It saves once,
	 * and only a name the user changed: a second commit (Enter's own click on the title, or the blur
	 * that follows) finds the field finished and does nothing.
	 */
	private startRename(): void {
		const port = this.port;
		const id = port.id();
		const metadata = port.metadata();
		if (!id || !metadata || port.isDraft()) return;
		const title = this.el.name;
		const original = metadata.name ?? "";
		const input = h("input", { class: "rename", value: original, "aria-label": "Session name" });
		let finished = false;
		const finish = async (save: boolean) => {
			if (finished) return;
			finished = true;
			input.replaceWith(title);
			title.focus();
			const name = input.value.trim();
			if (!save || name.length === 0 || name === original) return;
			title.textContent = name;
			try {
				port.metadataChanged(await port.api.updateSession(id, { name }));
			} catch (error) {
				title.textContent = original || "Untitled session";
				port.notify((error as Error).message, "error");
			}
		};
		input.addEventListener("keydown", (event) => {
			if (event.key === "Enter") {
				// Handled here: the key must not go on to press the title button the focus returns to.
				event.preventDefault();
				void finish(true);
			}
			if (event.key === "Escape") {
				event.preventDefault();
				event.stopPropagation();
				void finish(false);
			}
		});
		input.addEventListener("blur", () => void finish(true));
		title.replaceWith(input);
		input.focus();
		input.select();
	}
}

/** A session's active time (the sum of its turns' durations), e.g. "12 s" or "3 min". */
function activeTime(seconds: number): string {
	if (seconds < 60) return `${Math.max(1, Math.round(seconds))} s`;
	if (seconds < 3600) return `${Math.round(seconds / 60)} min`;
	return `${(seconds / 3600).toFixed(1)} h`;
}
