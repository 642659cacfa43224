import type { SessionTree } from "@agent/session-format/reading";
import { ContextPanel } from "./context-view.js";
import { byId } from "./dom.js";
import type { SessionPort } from "./session-port.js";
import { TreeView } from "./tree-view.js";

export type Tab = "transcript" | "context" | "tree";
const TABS: readonly Tab[] = ["transcript", "context", "tree"];

export interface TabHandlers {
	/** A message picked in the tree: show it in the transcript, on its branch. */
	onPick(seq: number): void;
	/** Compact, offered where the context is full. */
	onCompact(): void;
	/** The context's token estimate changed (the header shows it). */
	onContextTokens(tokens: number): void;
	/** Another tab is shown. */
	onShown(tab: Tab): void;
}

/**
 * The session's tabs: the transcript (drawn by the session view), what the LLM sees (Context,
 * with Compact offered once it fills the window) and every branch (Tree). Arrow keys move
 * between the tabs, as in any tab list.
 */
export class SessionTabs {
	current: Tab = "transcript";
	private readonly buttons = {
		transcript: byId<HTMLButtonElement>("tab-transcript"),
		context: byId<HTMLButtonElement>("tab-context"),
		tree: byId<HTMLButtonElement>("tab-tree"),
	};
	private readonly panels = { transcript: byId("transcript"), context: byId("context"), tree: byId("tree") };
	private readonly contextPanel: ContextPanel;
	private readonly treeView: TreeView;
	private contextRequest = 0;

	constructor(
		private readonly port: SessionPort,
		private readonly handlers: TabHandlers,
	) {
		// A tab panel takes the focus (as the ARIA tabs pattern has it): the Context one is a scroll
		// area with nothing else to focus, which a keyboard could not scroll otherwise.
		this.panels.context.tabIndex = 0;
		this.contextPanel = new ContextPanel(this.panels.context, { onCompact: () => handlers.onCompact() });
		this.treeView = new TreeView(this.panels.tree, {
			onPick: (seq) => handlers.onPick(seq),
			activePath: () => {
				const leaf = port.viewLeaf();
				return new Set(
					leaf === null
						? []
						: port
								.tree()
								.path(leaf)
								.map((record) => record.seq),
				);
			},
			labels: () => port.tree().labels(),
		});
		for (const tab of TABS) {
			const button = this.buttons[tab];
			button.addEventListener("click", () => this.show(tab));
			button.addEventListener("keydown", (event) => {
				const step = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
				if (step === 0) return;
				event.preventDefault();
				const next = TABS[(TABS.indexOf(tab) + step + TABS.length) % TABS.length] as Tab;
				this.show(next);
				this.buttons[next].focus();
			});
		}
	}

	show(tab: Tab): void {
		this.current = tab;
		for (const name of TABS) {
			const selected = name === tab;
			this.buttons[name].setAttribute("aria-selected", String(selected));
			this.buttons[name].tabIndex = selected ? 0 : -1;
			this.panels[name].hidden = !selected;
		}
		if (tab === "context") void this.refreshContext();
		if (tab === "tree") this.treeView.show(this.port.tree());
		this.handlers.onShown(tab);
	}

	/** The tree changed: the Tree tab, when shown, draws it again. */
	treeChanged(tree: SessionTree): void {
		if (this.current === "tree") this.treeView.show(tree);
	}

	/** Measures the context of the branch on screen again (the header's estimate, and the Context tab when shown). */
	async refreshContext(): Promise<void> {
		const id = this.port.id();
		if (!id || this.port.isDraft()) return;
		const request = ++this.contextRequest;
		try {
			const view = await this.port.api.context(id, this.port.viewLeaf());
			if (request !== this.contextRequest || this.port.id() !== id) return;
			this.handlers.onContextTokens(view.context.estimatedTokens);
			if (this.current === "context") this.contextPanel.show(view);
		} catch (error) {
			if (this.current === "context") this.port.notify((error as Error).message, "error");
		}
	}
}
