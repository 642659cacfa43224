import { findExcessiveNesting, MAX_NESTING_DEPTH } from "@agent/session-format/reading";
import type { SerializerProtocol } from "@langchain/langgraph-checkpoint";

/**
 * A value as LangGraph's serializer wrote it, stored inside a record: JSON inline (readable, and
 * no string-in-a-string escaping), the serializer's text when it is not JSON a record can hold
 * (nested too deep), or base64 for bytes.
 */
export type Encoded = { json: unknown } | { type: string; text: string } | { type: string; base64: string };

/**
 * A value as the serializer wrote it, with what comparing and sizing it needs. What a record
 * stores (`stored`) is made on first use: most items of a list are the same as last time, are
 * compared by key and never stored again, so their JSON is never parsed.
 */
export class EncodedValue {
	private made: Encoded | undefined;

	constructor(
		private readonly type: string,
		/** The serializer's output: text for JSON, base64 for anything else. */
		private readonly output: string,
		/** Equal for equal values, also for a value and the same value read back. */
		readonly key: string,
	) {}

	/** Its size in the log, roughly (UTF-16 units of its text). */
	get bytes(): number {
		return this.output.length;
	}

	get stored(): Encoded {
		if (this.made === undefined) {
			if (this.type !== "json") this.made = { type: this.type, base64: this.output };
			else {
				const json = JSON.parse(this.output) as unknown;
				this.made =
					findExcessiveNesting(json, NESTING_ROOM) === undefined ? { json } : { type: "json", text: this.output };
			}
			keys.set(this.made, this.key);
		}
		return this.made;
	}
}

// Room for the record's own levels (data, value, json) under the store's nesting limit.
const NESTING_ROOM = MAX_NESTING_DEPTH - 8;
const keys = new WeakMap<object, string>();
/** How LangGraph's serializer writes `undefined`. */
const UNDEFINED = '{"lc":2,"type":"undefined"}';

/**
 * A key under which a value and the same value read back compare equal. LangGraph's serializer
 * writes a property that is `undefined` (a ToolMessage's `artifact`...) as a marker, and the
 * object it revives has no such property, so its next serialization lacks it: such properties
 * are left out of the key. Cheap: only text that holds the marker is parsed.
 */
function canonical(text: string): string {
	return text.includes(UNDEFINED) ? JSON.stringify(JSON.parse(text), withoutUndefined) : text;
}

function withoutUndefined(this: unknown, _key: string, value: unknown): unknown {
	if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
	const object = value as Record<string, unknown>;
	let copy: Record<string, unknown> | undefined;
	for (const key of Object.keys(object)) {
		const item = object[key] as { lc?: unknown; type?: unknown } | null;
		if (typeof item !== "object" || item === null || item.lc !== 2 || item.type !== "undefined") continue;
		if (Object.keys(item).length !== 2) continue;
		copy ??= { ...object };
		delete copy[key];
	}
	return copy ?? value;
}

export async function encodeValue(serde: SerializerProtocol, value: unknown): Promise<EncodedValue> {
	const [type, bytes] = await serde.dumpsTyped(value);
	if (type === "json") {
		const text = typeof bytes === "string" ? bytes : new TextDecoder().decode(bytes);
		return new EncodedValue(type, text, canonical(text));
	}
	const base64 = Buffer.from(bytes).toString("base64");
	return new EncodedValue(type, base64, `${type}:${base64}`);
}

/** The key of a stored value: what encodeValue gave for it (JSON read back is printed again, the same way). */
export function keyOf(stored: Encoded): string {
	let key = keys.get(stored);
	if (key === undefined) {
		key =
			"json" in stored
				? canonical(JSON.stringify(stored.json))
				: "text" in stored
					? canonical(stored.text)
					: `${stored.type}:${stored.base64}`;
		keys.set(stored, key);
	}
	return key;
}

export function decodeValue(serde: SerializerProtocol, stored: Encoded): Promise<unknown> {
	if ("json" in stored) return serde.loadsTyped("json", JSON.stringify(stored.json));
	if ("text" in stored) {
		return serde.loadsTyped(stored.type, stored.type === "json" ? stored.text : new TextEncoder().encode(stored.text));
	}
	return serde.loadsTyped(stored.type, new Uint8Array(Buffer.from(stored.base64, "base64")));
}

/** A stored value read from a record: undefined when it is not one of the shapes above. */
export function asEncoded(value: unknown): Encoded | undefined {
	if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
	const object = value as Record<string, unknown>;
	if ("json" in object) return object as Encoded;
	if (typeof object.type !== "string") return undefined;
	if (typeof object.text === "string" || typeof object.base64 === "string") return object as Encoded;
	return undefined;
}
