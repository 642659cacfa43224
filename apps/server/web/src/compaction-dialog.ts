import type { SessionEvent } from "@agent/session";
import { byId } from "./dom.js";
import { compactNumber } from "./format.js";
import type { SessionView } from "./session-view.js";

type CompactionEvent = Extract<SessionEvent, { type: `compaction.${string}` }>;

/**
 * The Compact dialog: options (instructions for the summary, recent tokens to keep), then, while
 * the compaction runs, its progress from the session's events (planning, then every summarizer
 * call of a long history sent in chunks) and a Stop button that cancels it on the server (nothing
 * is written). A compaction started elsewhere (automatic, another tab) shows in the notice bar.
 */
export class CompactionDialog {
	private readonly el = {
		dialog: byId<HTMLDialogElement>("compact-dialog"),
		form: byId<HTMLFormElement>("compact-form"),
		instructions: byId<HTMLTextAreaElement>("compact-instructions"),
		keep: byId<HTMLInputElement>("compact-keep"),
		run: byId<HTMLButtonElement>("compact-run"),
		cancel: byId<HTMLButtonElement>("compact-cancel"),
		progress: byId("compact-progress"),
		bar: byId<HTMLProgressElement>("compact-bar"),
		status: byId("compact-status"),
	};
	/** The session whose compaction this dialog started and still waits for. */
	private running: string | undefined;

	constructor(private readonly view: SessionView) {
		byId("compact").addEventListener("click", () => this.open());
		this.el.cancel.addEventListener("click", () => void (this.running ? this.stop() : this.el.dialog.close()));
		this.el.form.addEventListener("submit", (event) => {
			event.preventDefault();
			void this.compact();
		});
		// Escape closes the dialog only when nothing runs (the compaction goes on otherwise).
		this.el.dialog.addEventListener("cancel", (event) => {
			if (this.running) event.preventDefault();
		});
	}

	/** A compaction event of the session on screen. */
	onEvent(event: CompactionEvent): void {
		const view = this.view;
		const mine = this.running === event.sessionId;
		switch (event.type) {
			case "compaction.started":
				view.el.compact.disabled = true;
				if (mine) {
					const size =
						event.messages !== undefined
							? `${event.messages.toLocaleString("en-US")} messages, ≈ ${compactNumber(event.tokensBefore ?? 0)} tokens`
							: "older messages";
					this.showStatus(`Summarizing ${size}…`, 0);
				} else view.showNotice("Compacting… older messages are being summarized.");
				break;
			case "compaction.progress": {
				const share = event.messagesTotal > 0 ? event.messagesDone / event.messagesTotal : 0;
				const text = `Summarized ${event.messagesDone.toLocaleString("en-US")} of ${event.messagesTotal.toLocaleString("en-US")} messages (${event.chunks} ${event.chunks === 1 ? "call" : "calls"} to the summarizer)`;
				if (mine) this.showStatus(text, share);
				else view.showNotice(`Compacting… ${text}.`);
				break;
			}
			case "compaction.completed":
				view.el.compact.disabled = this.running !== undefined;
				if (!mine) view.showNotice("Compacted: older messages are now a summary (see the divider).");
				break;
			case "compaction.skipped":
				// Only automatic compactions are skipped (nothing was written): say why, once.
				view.showNotice(`Automatic compaction skipped: ${event.reason}.`);
				break;
			case "compaction.failed":
				view.el.compact.disabled = this.running !== undefined;
				if (!mine) view.showNotice(`Compaction failed: ${event.error.message}`, true);
				break;
		}
	}

	private open(): void {
		this.reset();
		this.el.dialog.showModal();
	}

	private async compact(): Promise<void> {
		const view = this.view;
		const id = view.id;
		if (!id || this.running) return;
		const instructions = this.el.instructions.value.trim();
		const keep = this.el.keep.value.trim();
		this.running = id;
		view.el.compact.disabled = true;
		this.el.instructions.disabled = true;
		this.el.keep.disabled = true;
		this.el.run.disabled = true;
		this.el.cancel.textContent = "Stop";
		this.el.cancel.title = "Stop the compaction; nothing is written";
		this.showStatus("Planning: finding what to summarize and what to keep…", undefined);
		try {
			const result = await view.api.compact(id, {
				...(instructions ? { customInstructions: instructions } : {}),
				...(keep ? { keepRecentTokens: Number(keep) } : {}),
			});
			view.showNotice(
				result.cancelled
					? "Compaction stopped: nothing was written."
					: result.compacted
						? "Compacted: older messages are now a summary (see the divider)."
						: "Nothing to compact yet: the conversation is still short.",
			);
		} catch (error) {
			view.showNotice((error as Error).message, true);
		} finally {
			this.running = undefined;
			view.el.compact.disabled = false;
			this.el.dialog.close();
			this.reset();
		}
	}

	private async stop(): Promise<void> {
		const id = this.running;
		if (!id) return;
		this.el.cancel.disabled = true;
		this.showStatus("Stopping…", undefined);
		try {
			await this.view.api.cancelCompaction(id);
		} catch (error) {
			this.view.showNotice((error as Error).message, true);
		}
	}

	/** Shows a status line and, with a share (0..1), a progress bar; without one, a bar that only says "busy". */
	private showStatus(text: string, share: number | undefined): void {
		this.el.progress.hidden = false;
		this.el.status.textContent = text;
		if (share === undefined) this.el.bar.removeAttribute("value");
		else this.el.bar.value = share;
	}

	private reset(): void {
		this.el.instructions.disabled = false;
		this.el.keep.disabled = false;
		this.el.run.disabled = false;
		this.el.cancel.disabled = false;
		this.el.cancel.textContent = "Cancel";
		this.el.cancel.title = "";
		this.el.progress.hidden = true;
		this.el.status.textContent = "";
		this.el.bar.value = 0;
	}
}
