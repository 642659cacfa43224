import type { SessionEvent } from "@agent/session";
import type { StoredRecord } from "@agent/session-format/reading";
import { type CompactionEvent, IDLE, type LiveEffect, type LiveState, reduceLive } from "./live-state.js";
import type { SessionPort } from "./session-port.js";

/** What the live updates ask of the session view, beyond its port. */
export interface LiveView extends SessionPort {
	/** A record from the socket: into the tree and onto the screen (a gap makes it catch up instead). */
	addRecord(record: StoredRecord): void;
	/** Fetches what the page has not seen (a write that came without its records' events). */
	catchUp(): void;
	showNotFound(text?: string): void;
	/** Draws the header and the transcript again. */
	render(): void;
	/** The reply being written changed: the transcript shows it (or stops showing it). */
	streamingChanged(): void;
}

/**
 * The open session's live updates: its socket's events go through the reducer (live-state.ts,
 * tested there), and the effects it decides are carried out here, on the view and the Compact
 * dialog. Holds what the events say beyond the records: the turns under way and the reply being
 * written.
 */
export class LiveUpdates {
	private state: LiveState = IDLE;

	constructor(
		private readonly view: LiveView,
		private readonly compaction: { onEvent(event: CompactionEvent): void },
	) {}

	/** Turns of the session queued or running. */
	get turns(): number {
		return this.state.pending.length;
	}

	/** The reply being written, since the turn's last stored reply (undefined when none is). */
	get streamingText(): string | undefined {
		return this.state.streaming?.text;
	}

	/** Another session (or none) is on screen: nothing is under way for it yet. */
	reset(): void {
		this.state = IDLE;
	}

	/** A new session's first message, given back if its first turn fails (the server then keeps nothing). */
	keepUnsaved(firstMessage: string): void {
		this.state = { ...this.state, unsavedFirstMessage: firstMessage };
	}

	onEvent(event: SessionEvent): void {
		const { state, effects } = reduceLive(this.state, event, this.view.metadata()?.model);
		this.state = state;
		for (const effect of effects) this.apply(effect);
	}

	private apply(effect: LiveEffect): void {
		const view = this.view;
		switch (effect.type) {
			case "record":
				view.addRecord(effect.record);
				break;
			case "metadata":
				view.metadataChanged(effect.metadata);
				// A rename, a label or a leaf move writes a record without a record.appended event.
				if (effect.metadata.lastSeq > view.tree().lastSeq) view.catchUp();
				break;
			case "notice":
				view.notify(effect.text, effect.kind);
				break;
			case "first-turn-lost":
				view.navigate("#/new", true);
				view.composer.message.value = effect.text;
				view.notify(
					"The first reply did not come, so nothing was saved; your message is back in the box to send again.",
					"error",
				);
				break;
			case "deleted":
				view.showNotFound("This session was deleted.");
				break;
			case "compaction":
				this.compaction.onEvent(effect.event);
				if (effect.event.type === "compaction.completed") view.refreshContext();
				break;
			case "turn-ended":
				view.render();
				view.refreshContext();
				break;
			case "streaming":
				view.streamingChanged();
				break;
			case "queue":
				view.composer.showTurns(this.turns);
				break;
		}
	}
}
