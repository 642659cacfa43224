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
	 * Pretty JSON: what --json prints for one value. An array is written a piece at a time (the
	 * same text as one JSON.stringify): a listing of thousands of sessions then never builds its
	 * megabytes of text, and their encoded copy, as one string — memory that was most of the
	 * cost of `list --json` on the machines measured.
	 */
	async json(value: unknown): Promise<void> {
		if (!Array.isArray(value) || value.length === 0) return this.write(`${JSON.stringify(value, null, 2)}\n`);
		let piece = "[\n";
		for (let i = 0; i < value.length; i++) {
			// An element inside an array, as JSON.stringify(value, null, 2) writes it: "[\n  " + element + "\n]".
			const element = JSON.stringify([value[i]], null, 2);
			piece += element.slice(2, element.length - 2);
			piece += i === value.length - 1 ? "\n]\n" : ",\n";
			if (piece.length >= JSON_PIECE_CHARS) {
				await this.write(piece);
				piece = "";
			}
		}
		if (piece.length > 0) await this.write(piece);
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
