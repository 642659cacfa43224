import type { ConversationGenerator, Entry } from "./conversation.js";

export interface ConversationShape {
	/** Bytes of our log to reach. */
	bytes: number;
	/**
	 * With a late compaction: bytes of the live path (the kept turns plus everything after the
	 * compaction), the same whatever `bytes` is. Absent: a linear session, no compaction.
	 */
	live?: { keptBytes: number; afterBytes: number };
	name?: string;
}

export interface WrittenConversation {
	entries: number;
	bytes: number;
	/** With a compaction: its index, the first kept entry's index, and the byte offset (ours) where that entry starts. */
	compaction?: { index: number; firstKeptIndex: number; firstKeptOffset: number };
}

interface Sink {
	write(entries: readonly Entry[]): Promise<void>;
	readonly bytes: number;
	readonly count: number;
}

/**
 * Writes whole turns until the log reaches `shape.bytes`. With `live`, a compaction goes in
 * `afterBytes` before the end, keeping the last whole turns worth `keptBytes` before it.
 */
export async function writeConversation(
	sink: Sink,
	generator: ConversationGenerator,
	shape: ConversationShape,
): Promise<WrittenConversation> {
	await sink.write(generator.opening(shape.name));
	if (!shape.live) {
		// Whole turns, stopping before one that would overshoot (so many small sessions average `bytes`).
		for (;;) {
			const turn = generator.turn();
			if (sink.count > 3 && sink.bytes + estimateBytes(turn) > shape.bytes) break;
			await sink.write(turn);
			if (sink.bytes >= shape.bytes) break;
		}
		return { entries: sink.count, bytes: sink.bytes };
	}
	const turnStarts: Array<{ index: number; offset: number }> = [];
	const historyEnd = Math.max(0, shape.bytes - shape.live.afterBytes);
	do {
		turnStarts.push({ index: sink.count, offset: sink.bytes });
		await sink.write(generator.turn());
	} while (sink.bytes < historyEnd);
	const keepFrom = sink.bytes - shape.live.keptBytes;
	let kept = turnStarts[0] as { index: number; offset: number };
	for (const start of turnStarts) if (start.offset <= keepFrom) kept = start;
	const index = sink.count;
	await sink.write([generator.compaction(kept.index)]);
	while (sink.bytes < shape.bytes) await sink.write(generator.turn());
	return {
		entries: sink.count,
		bytes: sink.bytes,
		compaction: { index, firstKeptIndex: kept.index, firstKeptOffset: kept.offset },
	};
}

/** Roughly the bytes entries take in a log: their text plus a fixed overhead per line. */
function estimateBytes(entries: readonly Entry[]): number {
	let bytes = 0;
	for (const entry of entries) {
		bytes += 300;
		if (entry.kind !== "message") continue;
		for (const block of entry.message.content) {
			if (block.type === "text") bytes += block.text.length * 1.05;
			else if (block.type === "thinking") bytes += (block.thinking.length + block.thinkingSignature.length) * 1.05;
			else bytes += JSON.stringify(block.arguments).length + 60;
		}
	}
	return bytes;
}
