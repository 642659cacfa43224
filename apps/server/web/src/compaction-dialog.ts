import { byId } from "./dom.js";
import { compactNumber } from "./format.js";
import type { CompactionEvent } from "./live-state.js";
import type { SessionPort } from "./session-port.js";

const count = (value: number) => value.toLocaleString("en-US");

/**
 * The Compact dialog: options (instructions for the summary, recent tokens to keep), then, while
 * the compaction runs, its progress from the session's events: the summarizer calls done of those
 * planned (a long history goes in chunks), the messages summarized, and the time it has taken, so
 * the bar moves even while one long call runs; and a Stop button that cancels it on the server
 * (nothing is written). A compaction started elsewhere (automatic, another tab) shows in the notice bar.
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
		elapsed: byId("compact-elapsed"),
	};
	/** The session whose compaction this dialog started and still waits for. */
	private running: string | undefined;
	private started = 0;
	private ticker: ReturnType<typeof setInterval> | undefined;
	/** The summarizer calls planned, once the compaction said. */
	private planned: number | undefined;

	constructor(private readonly port: SessionPort) {
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

	/** Opens the dialog (the header's Compact, or the Context tab's when the context is full). */
	open(): void {
		if (this.running) return;
		this.reset();
		this.el.dialog.showModal();
	}

	/** A compaction event of the session on screen. */
	onEvent(event: CompactionEvent): void {
		const port = this.port;
		const mine = this.running === event.sessionId;
		switch (event.type) {
			case "compaction.started": {
				port.setCompacting(true);
				this.planned = event.chunksEstimated;
				const size =
					event.messages !== undefined
						? `${count(event.messages)} messages, ≈ ${compactNumber(event.tokensBefore ?? 0)} tokens`
						: "older messages";
				const calls = this.planned !== undefined ? ` in ${this.planned} ${this.planned === 1 ? "call" : "calls"}` : "";
				if (mine) this.showStatus(`Summarizing ${size}${calls}…`, this.planned !== undefined ? 0 : undefined);
				else port.notify(`Compacting… ${size} are being summarized.`, "progress");
				break;
			}
			case "compaction.progress": {
				const planned = event.chunksEstimated ?? this.planned;
				const calls =
					planned !== undefined
						? `call ${Math.min(event.chunks, planned)} of ${planned} done`
						: `${event.chunks} ${event.chunks === 1 ? "call" : "calls"} to the summarizer`;
				const text = `Summarized ${count(event.messagesDone)} of ${count(event.messagesTotal)} messages (${calls})`;
				// Calls done of calls planned (the estimate may be passed: the bar then waits near full).
				const share =
					planned !== undefined
						? Math.min(0.99, event.chunks / Math.max(planned, 1))
						: event.messagesTotal > 0
							? event.messagesDone / event.messagesTotal
							: 0;
				if (mine) this.showStatus(text, share);
				else port.notify(`Compacting… ${text}.`, "progress");
				break;
			}
			case "compaction.completed":
				if (!this.running) port.setCompacting(false);
				if (!mine) port.notify("Compacted: older messages are now a summary (see the divider).");
				break;
			case "compaction.skipped":
				// Only automatic compactions are skipped (nothing was written): say why, once.
				port.notify(`Automatic compaction skipped: ${event.reason}.`);
				break;
			case "compaction.failed":
				if (!this.running) port.setCompacting(false);
				if (!mine) port.notify(`Compaction failed: ${event.error.message}`, "error");
				break;
		}
	}

	private async compact(): Promise<void> {
		const port = this.port;
		const id = port.id();
		if (!id || this.running) return;
		const instructions = this.el.instructions.value.trim();
		const keep = this.el.keep.value.trim();
		this.running = id;
		this.planned = undefined;
		port.setCompacting(true);
		for (const field of [this.el.instructions, this.el.keep, this.el.run]) field.disabled = true;
		this.el.cancel.textContent = "Stop";
		this.el.cancel.title = "Stop the compaction; nothing is written";
		this.showStatus("Planning: finding what to summarize and what to keep…", undefined);
		this.started = Date.now();
		this.tick();
		this.ticker = setInterval(() => this.tick(), 1000);
		try {
			const result = await port.api.compact(id, {
				...(instructions ? { customInstructions: instructions } : {}),
				...(keep ? { keepRecentTokens: Number(keep) } : {}),
			});
			port.notify(
				result.cancelled
					? "Compaction stopped: nothing was written."
					: result.compacted
						? "Compacted: older messages are now a summary (see the divider)."
						: "Nothing to compact yet: the conversation is still short.",
			);
		} catch (error) {
			port.notify((error as Error).message, "error");
		} finally {
			this.running = undefined;
			port.setCompacting(false);
			this.el.dialog.close();
			this.reset();
		}
	}

	private tick(): void {
		const seconds = Math.round((Date.now() - this.started) / 1000);
		this.el.elapsed.textContent = seconds > 0 ? `running for ${seconds} s` : "";
	}

	private async stop(): Promise<void> {
		const id = this.running;
		if (!id) return;
		this.el.cancel.disabled = true;
		this.showStatus("Stopping…", undefined);
		try {
			await this.port.api.cancelCompaction(id);
		} catch (error) {
			this.port.notify((error as Error).message, "error");
		}
	}

	/** A status line and, with a share (0..1), the bar; without one, a bar that only says "busy". */
	private showStatus(text: string, share: number | undefined): void {
		this.el.progress.hidden = false;
		this.el.status.textContent = text;
		if (share === undefined) this.el.bar.removeAttribute("value");
		else this.el.bar.value = share;
	}

	private reset(): void {
		clearInterval(this.ticker);
		this.ticker = undefined;
		for (const field of [this.el.instructions, this.el.keep, this.el.run, this.el.cancel]) field.disabled = false;
		this.el.cancel.textContent = "Cancel";
		this.el.cancel.title = "";
		this.el.progress.hidden = true;
		this.el.status.textContent = "";
		this.el.elapsed.textContent = "";
		this.el.bar.value = 0;
	}
}
