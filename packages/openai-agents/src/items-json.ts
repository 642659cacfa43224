import type { AgentInputItem } from "@openai/agents-core";
import { invalidArgument } from "./errors.js";

/**
 * The SDK's items as JSON and back. Items are plain data but for one thing JSON cannot hold: an
 * image's or file's bytes may be a Uint8Array. Those become base64 text, and their places are
 * listed beside the items (`binary`), so nothing in the items themselves is reserved or escaped.
 */
export interface StoredItems {
	items: unknown[];
	/** The paths (keys from the items array down) of the values that were Uint8Arrays. */
	binary?: (string | number)[][];
}

/** The items as stored: a deep copy with no undefined values, bytes as base64 listed in `binary`. */
export function encodeItems(items: readonly AgentInputItem[]): StoredItems {
	const binary: (string | number)[][] = [];
	const encoded = items.map((item, index) => encodeValue(item, [index], binary));
	return binary.length > 0 ? { items: encoded, binary } : { items: encoded };
}

function encodeValue(value: unknown, path: (string | number)[], binary: (string | number)[][]): unknown {
	if (value === null || typeof value === "string" || typeof value === "boolean") return value;
	if (typeof value === "number") {
		if (!Number.isFinite(value)) throw unsupported(path, `the number ${value}`);
		return value;
	}
	if (value instanceof Uint8Array) {
		binary.push(path);
		return toBase64(value);
	}
	if (Array.isArray(value)) {
		return value.map((entry, i) => (entry === undefined ? null : encodeValue(entry, [...path, i], binary)));
	}
	if (typeof value === "object") {
		const prototype = Object.getPrototypeOf(value);
		if (prototype !== Object.prototype && prototype !== null)
			throw unsupported(path, "an object that is not plain data");
		const out: Record<string, unknown> = {};
		for (const [key, entry] of Object.entries(value)) {
			if (entry !== undefined) out[key] = encodeValue(entry, [...path, key], binary);
		}
		return out;
	}
	throw unsupported(path, `a ${typeof value}`);
}

function unsupported(path: (string | number)[], what: string): Error {
	const [index, ...rest] = path;
	return invalidArgument(
		`item ${index} holds ${what} at ${rest.join(".") || "its top level"}; session items must be plain JSON data (bytes as a Uint8Array)`,
	);
}

/** The items as they were added (Uint8Arrays restored). Takes what encodeItems made, as read back. */
export function decodeItems(stored: StoredItems): AgentInputItem[] {
	const items = structuredClone(stored.items);
	for (const path of stored.binary ?? []) {
		let parent: unknown = items;
		for (const key of path.slice(0, -1)) parent = (parent as Record<string | number, unknown>)[key];
		const last = path[path.length - 1] as string | number;
		const holder = parent as Record<string | number, unknown>;
		if (typeof holder?.[last] === "string") holder[last] = fromBase64(holder[last] as string);
	}
	return items as AgentInputItem[];
}

/**
 * One text per value that is the same for equal data: keys sorted, no undefined, bytes tagged.
 * What comparisons (a suffix, a replayed transaction) and fingerprints are made of.
 */
export function canonicalJson(value: unknown): string {
	return JSON.stringify(sorted(value));
}

function sorted(value: unknown): unknown {
	if (value instanceof Uint8Array) return { "(bytes)": toBase64(value) };
	if (Array.isArray(value)) return value.map((entry) => (entry === undefined ? null : sorted(entry)));
	if (value !== null && typeof value === "object") {
		const out: Record<string, unknown> = {};
		for (const key of Object.keys(value).sort()) {
			const entry = (value as Record<string, unknown>)[key];
			if (entry !== undefined) out[key] = sorted(entry);
		}
		return out;
	}
	return value;
}

/** The items as a reader gets them back from the store (what getItems returns for these items). */
export function asStored(items: readonly AgentInputItem[]): AgentInputItem[] {
	return decodeItems(encodeItems(items));
}

/** SHA-256 of the canonical JSON, hex: a transaction's fingerprint. */
export async function fingerprint(value: unknown): Promise<string> {
	const digest = await globalThis.crypto.subtle.digest("SHA-256", new TextEncoder().encode(canonicalJson(value)));
	return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

function toBase64(bytes: Uint8Array): string {
	return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
}

function fromBase64(text: string): Uint8Array {
	return new Uint8Array(Buffer.from(text, "base64"));
}
