import type { Writable } from "node:stream";
import { colorsEnabled, type Paint, painter } from "./colors.js";

/** About how much text `json` hands to the stream at a time. */
const JSON_PIECE_CHARS = 32 << 10;
/** About how many bytes `jsonArrayOf` hands to the stream at a time. */
const JSON_PIECE_BYTES = 256 << 10;
const OPEN = Buffer.from("[");
const COMMA = Buffer.from(",");
const COMMA_BYTE = 0x2c;
const CLOSE = Buffer.from("]\n");

/** Where a command writes: data to stdout, messages and progress to stderr. */
export class Output {
	readonly paint: Paint;
	readonly paintErr: Paint;

	constructor(
		public stdout: Writable & { isTTY?: boolean },
		readonly stderr: Writable & { isTTY?: boolean },
		env: NodeJS.ProcessEnv,
	) {
		this.paint = painter(colorsEnabled(stdout, env));
		this.paintErr = painter(colorsEnabled(stderr, env));
	}

	/** Sends what is written from now on to `stream` (a pager); returns the stream it replaced. */
	redirect(stream: Writable & { isTTY?: boolean }): Writable & { isTTY?: boolean } {
		const previous = this.stdout;
		this.stdout = stream;
		return previous;
	}

	/** Writes text (or bytes) as is. Resolves once the stream took it (waits when the pipe is full). */
	write(text: string | Uint8Array): Promise<void> {
		return new Promise((resolve, reject) => {
			if (this.stdout.write(text, (error) => (error ? reject(error) : undefined))) resolve();
			else this.stdout.once("drain", resolve);
		});
	}

	line(text = ""): Promise<void> {
		return this.write(`${text}\n`);
	}

	/**
	 * What --json prints for one value: indented for a person at a terminal, on one line when
	 * piped (as gh does: a program reads it, `jq .` indents it), which for a listing of thousands
	 * of sessions is a quarter less text to make and write. An array is written a piece at a time
	 * (the same text as one JSON.stringify): a listing then never builds its megabytes of text,
	 * and their encoded copy, as one string.
	 */
	async json(value: unknown): Promise<void> {
		const indent = this.stdout.isTTY === true ? 2 : undefined;
		if (!Array.isArray(value) || value.length === 0) return this.write(`${JSON.stringify(value, null, indent)}\n`);
		// Each element stringified inside an array (so that undefined, functions and symbols become
		// null there too), which writes it "[" + element + "]", or "[\n" + element + "\n]" indented.
		const trim = indent === undefined ? 1 : 2;
		const elementAt = (i: number) => {
			const text = JSON.stringify([value[i]], null, indent);
			return text.slice(trim, text.length - trim);
		};
		if (indent === undefined) return this.writeArray(value.length, elementAt, ",", "]\n");
		return this.writeArray(value.length, elementAt, ",\n", "\n]\n", "[\n");
	}

	/**
	 * A JSON array of values already in JSON (UTF-8 bytes), on one line: what `json` prints for
	 * them when piped, made without a string (a listing of thousands of sessions is megabytes).
	 * Values that follow each other in one buffer with a comma between them (the store's snapshot
	 * keeps sessions so) are already that array's text: such a run is written as it lies, without
	 * a copy. Other values are gathered into pieces of about JSON_PIECE_BYTES.
	 */
	async jsonArrayOf(values: readonly Uint8Array[]): Promise<void> {
		let pending: Uint8Array[] = [OPEN];
		let pendingBytes = OPEN.length;
		const flush = async () => {
			if (pendingBytes > 0) await this.write(Buffer.concat(pending, pendingBytes));
			pending = [];
			pendingBytes = 0;
		};
		let i = 0;
		while (i < values.length) {
			if (i > 0) {
				pending.push(COMMA);
				pendingBytes += COMMA.length;
			}
			const first = values[i] as Uint8Array;
			const all = new Uint8Array(first.buffer);
			let end = first.byteOffset + first.length;
			let next = i + 1;
			for (let value = values[next]; value !== undefined; value = values[next]) {
				if (value.buffer !== first.buffer || value.byteOffset !== end + 1 || all[end] !== COMMA_BYTE) break;
				end = value.byteOffset + value.length;
				next++;
			}
			const run = next - i > 1 ? all.subarray(first.byteOffset, end) : first;
			i = next;
			if (run.length >= JSON_PIECE_BYTES) {
				await flush();
				await this.write(run);
				continue;
			}
			pending.push(run);
			pendingBytes += run.length;
			if (pendingBytes >= JSON_PIECE_BYTES) await flush();
		}
		pending.push(CLOSE);
		pendingBytes += CLOSE.length;
		await flush();
	}

	/**
	 * Writes `open`, `count` elements separated by `between`, then `close`, handing the stream about
	 * JSON_PIECE_CHARS at a time: a listing of thousands of sessions never becomes one string.
	 */
	private async writeArray(
		count: number,
		elementAt: (i: number) => string,
		between: string,
		close: string,
		open = "[",
	): Promise<void> {
		let piece = open;
		for (let i = 0; i < count; i++) {
			if (i > 0) piece += between;
			piece += elementAt(i);
			if (piece.length >= JSON_PIECE_CHARS) {
				await this.write(piece);
				piece = "";
			}
		}
		await this.write(piece + close);
	}

	/** One JSON value on one line: what --json prints for streams (JSON Lines). */
	jsonLine(value: unknown): Promise<void> {
		return this.write(`${JSON.stringify(value)}\n`);
	}

	/** A message for people (not data) on stderr. */
	note(text: string): void {
		this.stderr.write(`${text}\n`);
	}

	/** Waits until everything written to stdout has been handed to the OS. */
	flush(): Promise<void> {
		return new Promise((resolve) => {
			if (this.stdout.writableLength === 0) resolve();
			else this.stdout.once("drain", () => resolve());
		});
	}
}
