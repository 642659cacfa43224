import { writeSync } from "node:fs";

/**
 * What children print, one line each, on stdout (a pipe: writes to it are synchronous on Linux,
 * so a line is in the pipe before the child takes its next step):
 *   ready <pid>
 *   ack <session index> <seq> <payload number>   once the append that wrote it resolved
 *   held <pid>                                  a lease is held
 *   error <code> <message as JSON>
 *   done
 */
export function say(...words: (string | number)[]): void {
	writeSync(1, `${words.join(" ")}\n`);
}

export function sayError(error: unknown): void {
	const code = (error as { code?: unknown })?.code;
	say("error", typeof code === "string" ? code : "UNKNOWN", JSON.stringify(String((error as Error)?.message ?? error)));
}

export function configOf<T>(): T {
	const raw = process.argv[2];
	if (!raw) throw new Error("a child needs its config as one JSON argument");
	return JSON.parse(raw) as T;
}

export function sleep(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}
