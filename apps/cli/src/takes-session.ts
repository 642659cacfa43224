/** Commands that take no session id: `--last` means nothing to them (or, for `show N`, a count). */
const WITHOUT_SESSION = new Set(["create", "list", "pick", "search", "import", "completion", "migrate"]);

/** True when the command takes a session id (and so `--last` and id completion). */
export function takesSession(command: string): boolean {
	return !WITHOUT_SESSION.has(command);
}
