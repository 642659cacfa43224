// Lines this store writes start with recordType, schemaVersion and seq (the schema's key order).
const OWN_PREFIX = /^\{"recordType":"[^"\\]*","schemaVersion":\d+,"seq":(\d+)[,}]/;

/** The seq of a line: read from its first bytes when it has our own key order, else parsed. */
export function quickSeq(text: string): number | undefined {
	const match = OWN_PREFIX.exec(text);
	if (match) return Number(match[1]);
	try {
		const value = JSON.parse(text) as { seq?: unknown } | null;
		return typeof value?.seq === "number" && Number.isInteger(value.seq) ? value.seq : undefined;
	} catch {
		return undefined;
	}
}
