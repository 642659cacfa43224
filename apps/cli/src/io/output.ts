import type { Writable } from "node:stream";
import { colorsEnabled, type Paint, painter } from "./colors.js";

/** About how much text `json` hands to the stream at a time. */
const JSON_PIECE_CHARS = 32 << 10;

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

	/** Writes text as is. Resolves once the stream took it (waits when the pipe is full). */
	write(text: string): Promise<void> {
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
		// An element inside an array, as JSON.stringify(value, null, indent) writes it: "[" + nl + element + nl + "]".
		const [open, between, close] = indent === undefined ? ["[", ",", "]\n"] : ["[\n", ",\n", "\n]\n"];
		let piece = open;
		for (let i = 0; i < value.length; i++) {
			// Stringified inside an array, so that undefined, functions and symbols become null there too.
			const element = JSON.stringify([value[i]], null, indent);
			piece += indent === undefined ? element.slice(1, element.length - 1) : element.slice(2, element.length - 2);
			piece += i === value.length - 1 ? close : between;
			if (piece.length >= JSON_PIECE_CHARS) {
				await this.write(piece);
				piece = "";
			}
		}
		if (piece.length > 0) await this.write(piece);
	}

	/** A JSON array of values already in JSON text, on one line (what `json` prints for them when piped). */
	async jsonArrayOf(texts: readonly string[]): Promise<void> {
		let piece = "[";
		for (let i = 0; i < texts.length; i++) {
			piece += i === 0 ? texts[i] : `,${texts[i]}`;
			if (piece.length >= JSON_PIECE_CHARS) {
				await this.write(piece);
				piece = "";
			}
		}
		await this.write(`${piece}]\n`);
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
