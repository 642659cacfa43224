import type { RecordInput, StoredRecord } from "@agent/session-format";

/**
 * The text of a record a test writes: who wrote it, its number in that writer's sequence,
 * padding, and a checksum of all of it. A record read back whose text fails the checksum is a
 * corrupt record returned; a tag and number tell which acknowledged append it is.
 */
export interface PayloadId {
	tag: string;
	n: number;
}

export function payloadText(tag: string, n: number, padBytes = 0): string {
	const body = `${tag}#${n}#${"x".repeat(padBytes)}`;
	return `${body}#${checksum(body)}`;
}

export function parsePayload(text: string): PayloadId | undefined {
	const cut = text.lastIndexOf("#");
	if (cut < 0) return undefined;
	const body = text.slice(0, cut);
	if (text.slice(cut + 1) !== checksum(body)) return undefined;
	const [tag, n] = body.split("#");
	const number = Number(n);
	if (!tag || !Number.isInteger(number)) return undefined;
	return { tag, n: number };
}

export function payloadRecord(tag: string, n: number, padBytes = 0): RecordInput {
	return { recordType: "message", role: "user", content: [{ type: "text", text: payloadText(tag, n, padBytes) }] };
}

/** The payload a stored record carries, if it is one of ours and intact. */
export function payloadOf(record: StoredRecord): PayloadId | undefined {
	if (record.recordType !== "message") return undefined;
	const block = record.content[0];
	return block?.type === "text" ? parsePayload(block.text) : undefined;
}

/** FNV-1a, 32 bits, as hex. */
function checksum(text: string): string {
	let hash = 0x811c9dc5;
	for (let i = 0; i < text.length; i++) {
		hash ^= text.charCodeAt(i);
		hash = Math.imul(hash, 0x01000193);
	}
	return (hash >>> 0).toString(16).padStart(8, "0");
}
