import { randomBytes } from "node:crypto";
import { type ContentBlock, textBlock } from "@agent/session-format/reading";
import { checkUserContent, noteAcceptedTurn } from "./accepted-turns.js";
import { checkParentSeqShape } from "./continue-from.js";
import { toEventError } from "./events.js";
import type { ModelResolver } from "./model-resolver.js";
import type { RuntimeMachinery } from "./runtime-machinery.js";
import type { QueuedTurn, RuntimeCore, SendOptions } from "./runtime-options.js";
import { checkThinkingLevel } from "./thinking-levels.js";
import type { TurnControls } from "./turn-controls.js";
import type { TurnQueue } from "./turn-queue.js";
import { TurnSlots } from "./turn-slots.js";

/**
 * How a turn gets in: its arguments checked at once, an id unique across processes, its own
 * AbortController, the model checked and the turn noted in the store's journal (accepted), then
 * its place in the session's queue, and a slot among the turns this runtime runs at once
 * (maxConcurrentTurns). The turn itself runs when its time comes (turn-execution.ts).
 */
export class TurnIntake {
	private turnCounter = 0;
	private readonly slots: TurnSlots;

	constructor(
		private readonly core: RuntimeCore,
		private readonly models: ModelResolver,
		private readonly queue: TurnQueue,
		private readonly controls: TurnControls,
		private readonly machinery: () => Promise<RuntimeMachinery>,
	) {
		this.slots = new TurnSlots(core.options.maxConcurrentTurns);
	}

	enqueue(sessionId: string, content: string | ContentBlock[], options: SendOptions): QueuedTurn {
		// A bad thinking level or parentSeq fails here, at once, rather than when the turn's time comes.
		if (options.thinkingLevel !== undefined) checkThinkingLevel(options.thinkingLevel);
		if (options.parentSeq !== undefined) checkParentSeqShape(options.parentSeq);
		const blocks = typeof content === "string" ? [textBlock(content)] : content;
		checkUserContent(blocks);
		// Unique across processes too: instances sharing a store key their turn journals by it.
		const turnId = `${Date.now().toString(36)}-${(++this.turnCounter).toString(36)}-${randomBytes(3).toString("hex")}`;
		const signal = this.controls.add(sessionId, turnId, options.signal);
		// A model that cannot run (unknown, no API key) is refused before the turn is accepted.
		const model = options.model;
		const noted =
			model === undefined
				? this.noteAccepted(sessionId, turnId, blocks)
				: this.models.check(model).then(() => this.noteAccepted(sessionId, turnId, blocks));
		const accepted = noted.then(() => undefined);
		accepted.catch(() => {});
		let position = 0;
		const done = this.queue.enqueue(
			sessionId,
			async () => {
				const journaled = await noted.catch((error: unknown) => {
					// Never accepted (the model was refused, or the journal could not note it): said, so
					// that nothing shows the turn queued forever.
					this.core.events.emit({ type: "turn.failed", sessionId, turnId, error: toEventError(error) });
					throw error;
				});
				const { turns } = await this.machinery();
				return this.slots.run(
					() => turns.execute(sessionId, turnId, blocks, { ...options, signal }, journaled),
					signal,
				);
			},
			(queuedAt) => {
				position = queuedAt;
				this.core.events.emit({ type: "turn.queued", sessionId, turnId, position: queuedAt });
			},
		);
		const forget = () => this.controls.remove(turnId);
		done.then(forget, forget);
		return { turnId, position, accepted, done };
	}

	/** Notes an accepted turn in the store's journal (accepted-turns.ts); false when nothing was noted. */
	private noteAccepted(sessionId: string, turnId: string, content: ContentBlock[]): Promise<boolean> {
		// A deferred session keeps nothing before its first reply: its first turn is not journaled either.
		if (this.core.unwritten.has(sessionId)) return Promise.resolve(false);
		return noteAcceptedTurn(this.core.store, sessionId, turnId, content);
	}
}
