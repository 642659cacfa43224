import type { ScannedArgs } from "./argv-scan.js";
import { takesSession } from "./takes-session.js";

/**
 * Where `--last` stands for a session id in the arguments (-1 when it does not): any command
 * that takes an id takes `--last` in its place, and the newest session's id is put there before
 * the command line is parsed. `show --last N` (a number after it) is show's own option: its last
 * N records.
 */
export function lastSessionIndex(args: readonly string[], scanned: ScannedArgs): number {
	if (scanned.command === undefined || !takesSession(scanned.command)) return -1;
	for (let i = scanned.commandIndex + 1; i < args.length; i++) {
		const arg = args[i];
		if (arg === "--") return -1;
		if (arg !== "--last") continue;
		if (scanned.command === "show" && /^\d+$/.test(args[i + 1] ?? "")) return -1;
		return i;
	}
	return -1;
}
