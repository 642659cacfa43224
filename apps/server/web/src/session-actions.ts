import { contentText, type StoredRecord } from "@agent/session-format/reading";
import { byId } from "./dom.js";
import { exportSession } from "./export-download.js";
import type { MessageAction } from "./record-view.js";
import type { SessionPort } from "./session-port.js";

/** What the buttons, dialogs and message actions of a session do, through the session's port. */
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

	constructor(private readonly port: SessionPort) {
		const on = (id: string, handler: () => unknown) => byId(id).addEventListener("click", () => void handler());
		on("fork", () => this.fork(port.selectedSeq() ?? port.viewLeaf() ?? undefined));
		on("branch", () => this.branch(port.selectedSeq() ?? port.viewLeaf()));
		on("stop", () => this.stop());
		// Esc stops a running reply (unless a dialog is open or an edit is being cancelled).
		document.addEventListener("keydown", (event) => {
			if (event.key !== "Escape" || event.shiftKey || event.defaultPrevented) return;
			if (document.querySelector("dialog[open]")) return;
			// Esc in the search box (or another field) is that field's own.
			if ((event.target as HTMLElement).closest?.("input, select")) return;
			if (port.isBusy()) void this.stop();
		});
		on("archive", () => this.toggleArchived());
		on("delete", () => this.remove());
		on("back", () => port.navigate("#/"));
		on("label-cancel", () => this.el.labelDialog.close());
		byId("label-form").addEventListener("submit", () => void this.saveLabel());
		on("export", () => {
			this.el.exportStatus.textContent = "";
			this.el.exportDialog.showModal();
		});
		on("export-cancel", () => this.el.exportDialog.close());
		on("export-download", () => this.export("download"));
		on("export-copy", () => this.export("copy"));
	}

	/**
	 * Sends the message box. A new session is created first (the draft). Otherwise the message
	 * continues the branch on screen: the one being edited, or another branch the user switched to
	 * (the server moves the leaf there with the message, and the page says so).
	 */
	async send(): Promise<void> {
		const port = this.port;
		const composer = port.composer;
		const text = composer.message.value.trim();
		if (text.length === 0) return;
		composer.message.value = "";
		const editing = composer.editing;
		try {
			const id = port.id();
			if (port.isDraft() || !id || (editing && editing.parentSeq === null)) {
				const name = editing && port.metadata()?.name ? `${port.metadata()?.name} (edited)` : undefined;
				const created = await port.api.createSession({
					model: composer.picked(),
					deferred: true,
					...(name ? { name } : {}),
				});
				composer.cancelEdit();
				await port.openCreated(created.id, text);
				await port.api.send(created.id, text, { model: composer.modelForSend() });
				return;
			}
			let parentSeq: number | undefined;
			if (editing && editing.parentSeq !== null) {
				parentSeq = editing.parentSeq;
				port.showBranch(parentSeq);
				composer.cancelEdit();
			} else if (!port.isFollowing()) {
				parentSeq = port.viewLeaf() ?? undefined;
				if (parentSeq !== undefined) {
					port.notify(
						`Sent on the branch on screen: it continues from #${parentSeq}, which is the active branch now. The other branch stays as it was.`,
					);
				}
			}
			port.followLatest();
			await port.api.send(id, text, {
				model: composer.modelForSend(),
				...(parentSeq !== undefined ? { parentSeq } : {}),
			});
		} catch (error) {
			composer.message.value = text;
			port.notify((error as Error).message, "error");
		}
	}

	async onMessageAction(action: MessageAction, record: StoredRecord): Promise<void> {
		const port = this.port;
		switch (action) {
			case "branch":
				return this.branch(record.seq);
			case "fork":
				return this.fork(record.seq);
			case "label":
				this.labelTarget = record.seq;
				this.el.labelTitle.textContent = `Label #${record.seq}`;
				this.el.labelInput.value = port.tree().labels().get(record.seq) ?? "";
				this.el.labelDialog.showModal();
				return;
			case "copy":
				if (record.recordType === "message") await this.copy(contentText(record.content), "Message copied.");
				return;
			case "edit":
				if (record.recordType === "message")
					port.composer.startEdit(record.seq, port.tree().parentOf(record.seq), contentText(record.content));
				return;
			case "retry":
				return this.retry(record);
		}
	}

	/** Copies a text (a code block's, say) and says so. */
	async copy(text: string, done: string): Promise<void> {
		try {
			await navigator.clipboard.writeText(text);
			this.port.notify(done);
		} catch {
			this.port.notify("The browser refused the clipboard; select the text and copy it instead.", "error");
		}
	}

	/** After a failed or stopped reply: the same user message again, on a new branch from where it was sent. */
	private async retry(failed: StoredRecord): Promise<void> {
		const port = this.port;
		const id = port.id();
		if (!id) return;
		const tree = port.tree();
		let seq: number | null = failed.seq;
		let user: StoredRecord | undefined;
		while (seq !== null) {
			const record = tree.get(seq);
			if (record?.recordType === "message" && record.role === "user") {
				user = record;
				break;
			}
			seq = tree.parentOf(seq);
		}
		if (user?.recordType !== "message") return port.notify("No message to retry before this reply.", "error");
		const parent = tree.parentOf(user.seq);
		try {
			port.hideNotice();
			if (parent !== null) port.showBranch(parent);
			await port.api.send(id, contentText(user.content), {
				model: port.composer.modelForSend(),
				...(parent !== null ? { parentSeq: parent } : {}),
			});
		} catch (error) {
			port.notify((error as Error).message, "error");
		}
	}

	private async fork(atSeq: number | undefined): Promise<void> {
		const port = this.port;
		const id = port.id();
		if (!id) return;
		try {
			const name = `${port.metadata()?.name ?? "Untitled session"} (fork)`;
			const forked = await port.api.fork(id, { ...(atSeq !== undefined ? { atSeq } : {}), name });
			port.navigate(`#/s/${forked.id}`);
		} catch (error) {
			port.notify((error as Error).message, "error");
		}
	}

	/** Stops the running turn of the session (the Stop button, or Esc). */
	async stop(): Promise<void> {
		const port = this.port;
		const id = port.id();
		if (!id || !port.isBusy()) return;
		try {
			await port.api.cancelTurn(id);
		} catch (error) {
			port.notify((error as Error).message, "error");
		}
	}

	private async branch(at: number | null): Promise<void> {
		const port = this.port;
		const id = port.id();
		if (!id || at === null) return;
		const summarize = byId<HTMLInputElement>("branch-summarize").checked;
		try {
			if (summarize) port.notify("Summarizing the branch you leave…", "progress");
			const metadata = await port.api.branch(id, at, summarize);
			port.metadataChanged(metadata);
			port.showBranch(summarize ? (metadata.leafSeq ?? metadata.lastSeq) : at);
			port.notify(
				summarize
					? `The next message continues from #${at}, with a summary of the branch left; that branch stays too.`
					: `The next message continues from #${at}; the later messages stay on their own branch.`,
			);
			port.composer.message.focus();
		} catch (error) {
			port.notify((error as Error).message, "error");
		}
	}

	private async saveLabel(): Promise<void> {
		const port = this.port;
		const id = port.id();
		const target = this.labelTarget;
		if (!id || target === undefined) return;
		try {
			await port.api.label(id, target, this.el.labelInput.value.trim());
		} catch (error) {
			port.notify((error as Error).message, "error");
		}
	}

	private async export(mode: "download" | "copy"): Promise<void> {
		const id = this.port.id();
		if (!id) return;
		const status = this.el.exportStatus;
		status.textContent = "Exporting…";
		status.textContent = await exportSession(this.port.api, id, this.el.exportFormat.value, mode);
	}

	private async toggleArchived(): Promise<void> {
		const port = this.port;
		const id = port.id();
		const metadata = port.metadata();
		if (!id || !metadata) return;
		try {
			port.metadataChanged(await port.api.updateSession(id, { archived: !metadata.archivedAt }));
		} catch (error) {
			port.notify((error as Error).message, "error");
		}
	}

	private async remove(): Promise<void> {
		const port = this.port;
		const id = port.id();
		if (!id) return;
		if (!confirm(`Delete “${port.metadata()?.name ?? id}” and its whole history? This cannot be undone.`)) return;
		try {
			await port.api.deleteSession(id);
			port.navigate("#/");
		} catch (error) {
			port.notify((error as Error).message, "error");
		}
	}
}
