import { contentText, type StoredRecord } from "@agent/session-format/reading";
import type { ExportFormat } from "./api.js";
import { CompactionDialog } from "./compaction-dialog.js";
import { byId, h } from "./dom.js";
import type { MessageAction } from "./record-view.js";
import type { SessionView } from "./session-view.js";

/** What the buttons, dialogs and message actions of a session do. */
export class SessionActions {
	private readonly el = {
		labelDialog: byId<HTMLDialogElement>("label-dialog"),
		labelTitle: byId("label-title"),
		labelInput: byId<HTMLInputElement>("label-input"),
		exportDialog: byId<HTMLDialogElement>("export-dialog"),
		exportFormat: byId<HTMLSelectElement>("export-format"),
		exportStatus: byId("export-status"),
	};
	private labelTarget: number | undefined;
	/** The Compact dialog: options, progress, stop. */
	readonly compaction: CompactionDialog;

	constructor(private readonly view: SessionView) {
		const on = (id: string, handler: () => unknown) => byId(id).addEventListener("click", () => void handler());
		this.compaction = new CompactionDialog(view);
		on("fork", () => this.fork(view.selectedSeq ?? view.viewLeaf ?? undefined));
		on("branch", () => this.branch(view.selectedSeq ?? view.viewLeaf));
		on("stop", () => this.stop());
		// Esc stops a running reply (unless a dialog is open or an edit is being cancelled).
		document.addEventListener("keydown", (event) => {
			if (event.key !== "Escape" || event.defaultPrevented || document.querySelector("dialog[open]")) return;
			// Esc in the search box (or another field) is that field's own.
			if ((event.target as HTMLElement).closest?.("input, select")) return;
			if (view.pendingTurns.size > 0) void this.stop();
		});
		on("archive", () => this.toggleArchived());
		on("delete", () => this.remove());
		on("session-name", () => this.startRename());
		on("back", () => view.navigate("#/"));
		on("label-cancel", () => this.el.labelDialog.close());
		byId("label-form").addEventListener("submit", () => void this.saveLabel());
		on("export", () => this.el.exportDialog.showModal());
		on("export-cancel", () => this.el.exportDialog.close());
		on("export-download", () => this.exportSession("download"));
		on("export-copy", () => this.exportSession("copy"));
	}

	/** Sends the message box: creates a new session first (the draft), or branches first when editing. */
	async send(): Promise<void> {
		const view = this.view;
		const composer = view.composer;
		const text = composer.message.value.trim();
		if (text.length === 0) return;
		composer.message.value = "";
		const editing = composer.editing;
		try {
			let id = view.id;
			if (view.draft || !id || (editing && editing.parentSeq === null)) {
				const name = editing && view.metadata?.name ? `${view.metadata.name} (edited)` : undefined;
				const created = await view.api.createSession({
					model: composer.picked(),
					deferred: true,
					...(name ? { name } : {}),
				});
				id = created.id;
				composer.cancelEdit();
				view.navigate(`#/s/${id}`, true);
				await view.open(id);
				await view.subscribed;
				// Deferred: if this first turn fails, the server keeps nothing and the page goes back to a draft.
				view.unsavedFirstMessage = text;
				await view.api.send(id, text, composer.modelForSend());
				return;
			}
			if (editing && editing.parentSeq !== null) {
				view.metadata = await view.api.branch(id, editing.parentSeq);
				view.viewLeaf = editing.parentSeq;
				composer.cancelEdit();
			} else if (!view.isFollowing()) {
				view.viewLeaf = view.activeLeaf();
			}
			view.render();
			view.followLatest();
			await view.api.send(id, text, composer.modelForSend());
		} catch (error) {
			composer.message.value = text;
			view.showNotice((error as Error).message, true);
		}
	}

	async onMessageAction(action: MessageAction, record: StoredRecord): Promise<void> {
		const view = this.view;
		switch (action) {
			case "branch":
				return this.branch(record.seq);
			case "fork":
				return this.fork(record.seq);
			case "label":
				this.labelTarget = record.seq;
				this.el.labelTitle.textContent = `Label #${record.seq}`;
				this.el.labelInput.value = view.tree().labels().get(record.seq) ?? "";
				this.el.labelDialog.showModal();
				return;
			case "copy":
				if (record.recordType === "message") await this.copy(contentText(record.content), "Message copied.");
				return;
			case "edit":
				if (record.recordType === "message")
					view.composer.startEdit(record.seq, view.tree().parentOf(record.seq), contentText(record.content));
				return;
			case "retry":
				return this.retry(record);
		}
	}

	/** After a failed reply: the same user message again, on a new branch from where it was sent. */
	private async retry(failed: StoredRecord): Promise<void> {
		const view = this.view;
		const id = view.id;
		if (!id) return;
		let seq: number | null = failed.seq;
		let user: StoredRecord | undefined;
		while (seq !== null) {
			const record = view.tree().get(seq);
			if (record?.recordType === "message" && record.role === "user") {
				user = record;
				break;
			}
			seq = view.tree().parentOf(seq);
		}
		if (user?.recordType !== "message") return view.showNotice("No message to retry before this reply.", true);
		const parent = view.tree().parentOf(user.seq);
		try {
			if (parent !== null) {
				view.metadata = await view.api.branch(id, parent);
				view.viewLeaf = parent;
				view.render();
			}
			view.hideNotice();
			await view.api.send(id, contentText(user.content), view.composer.modelForSend());
		} catch (error) {
			view.showNotice((error as Error).message, true);
		}
	}

	private async fork(atSeq: number | undefined): Promise<void> {
		const view = this.view;
		const id = view.id;
		if (!id) return;
		try {
			const name = `${view.metadata?.name ?? "Untitled session"} (fork)`;
			const forked = await view.api.fork(id, { ...(atSeq !== undefined ? { atSeq } : {}), name });
			view.navigate(`#/s/${forked.id}`);
		} catch (error) {
			view.showNotice((error as Error).message, true);
		}
	}

	/** Stops the running turn of the session (the Stop button, or Esc). */
	async stop(): Promise<void> {
		const view = this.view;
		const id = view.id;
		if (!id || view.pendingTurns.size === 0) return;
		try {
			await view.api.cancelTurn(id);
		} catch (error) {
			view.showNotice((error as Error).message, true);
		}
	}

	private async branch(at: number | null): Promise<void> {
		const view = this.view;
		const id = view.id;
		if (!id || at === null) return;
		const summarize = byId<HTMLInputElement>("branch-summarize").checked;
		try {
			if (summarize) view.showNotice("Summarizing the branch you leave…");
			view.metadata = await view.api.branch(id, at, summarize);
			view.viewLeaf = summarize ? (view.metadata.leafSeq ?? view.metadata.lastSeq) : at;
			view.select(null);
			view.showNotice(
				summarize
					? `The next message continues from #${at}, with a summary of the branch left; that branch stays too.`
					: `The next message continues from #${at}; the later messages stay on their own branch.`,
			);
			view.composer.message.focus();
			void view.refreshContext();
		} catch (error) {
			view.showNotice((error as Error).message, true);
		}
	}

	private async saveLabel(): Promise<void> {
		const view = this.view;
		const id = view.id;
		const target = this.labelTarget;
		if (!id || target === undefined) return;
		try {
			await view.api.label(id, target, this.el.labelInput.value.trim());
		} catch (error) {
			view.showNotice((error as Error).message, true);
		}
	}

	private async exportSession(mode: "download" | "copy"): Promise<void> {
		const view = this.view;
		const id = view.id;
		if (!id) return;
		const format = this.el.exportFormat.value as ExportFormat;
		this.el.exportStatus.textContent = "Exporting…";
		try {
			const text = await view.api.exportText(id, format);
			if (mode === "copy") {
				await navigator.clipboard.writeText(text);
				this.el.exportStatus.textContent = `Copied (${text.length.toLocaleString()} characters).`;
				return;
			}
			const types: Record<ExportFormat, [string, string]> = {
				md: ["text/markdown", "md"],
				html: ["text/html", "html"],
				jsonl: ["application/x-ndjson", "jsonl"],
				pi: ["application/x-ndjson", "pi.jsonl"],
			};
			const [type, extension] = types[format];
			const url = URL.createObjectURL(new Blob([text], { type }));
			const link = h("a", { class: "hidden-link" });
			link.href = url;
			link.download = `session-${id}.${extension}`;
			document.body.append(link);
			link.click();
			link.remove();
			setTimeout(() => URL.revokeObjectURL(url), 10_000);
			this.el.exportStatus.textContent = "Downloaded.";
		} catch (error) {
			this.el.exportStatus.textContent = (error as Error).message;
		}
	}

	private async copy(text: string, done: string): Promise<void> {
		try {
			await navigator.clipboard.writeText(text);
			this.view.showNotice(done);
		} catch {
			this.view.showNotice("The browser refused the clipboard; select the text and copy it instead.", true);
		}
	}

	private async toggleArchived(): Promise<void> {
		const view = this.view;
		const id = view.id;
		if (!id || !view.metadata) return;
		try {
			view.metadata = await view.api.updateSession(id, { archived: !view.metadata.archivedAt });
			view.render();
		} catch (error) {
			view.showNotice((error as Error).message, true);
		}
	}

	private async remove(): Promise<void> {
		const view = this.view;
		const id = view.id;
		if (!id) return;
		if (!confirm(`Delete “${view.metadata?.name ?? id}” and its whole history? This cannot be undone.`)) return;
		try {
			await view.api.deleteSession(id);
			view.navigate("#/");
		} catch (error) {
			view.showNotice((error as Error).message, true);
		}
	}

	/** The title becomes a text field: Enter saves, Esc cancels. */
	private startRename(): void {
		const view = this.view;
		const id = view.id;
		if (!id || !view.metadata) return;
		const title = view.el.name;
		const input = h("input", { class: "rename", value: view.metadata.name ?? "", "aria-label": "Session name" });
		let finished = false;
		const finish = async (save: boolean) => {
			if (finished) return;
			finished = true;
			input.replaceWith(title);
			title.focus();
			const name = input.value.trim();
			if (!save || name.length === 0 || name === view.metadata?.name) return;
			try {
				view.metadata = await view.api.updateSession(id, { name });
				view.render();
			} catch (error) {
				view.showNotice((error as Error).message, true);
			}
		};
		input.addEventListener("keydown", (event) => {
			if (event.key === "Enter") void finish(true);
			if (event.key === "Escape") {
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
