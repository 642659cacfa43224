import { readdirSync, readFileSync, statSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { createFileStore } from "@agent/session-fs";

export const TRAP_TEXT = "TRAP: a session outside the store's home";

/**
 * A session planted next to the store's home (`<root>/outside/sessions/<id>/`), where a
 * traversing id would land. Its files and directories get an access time older than their
 * modification time, so the filesystem's relatime updates it on any read: `readPaths()` names
 * every part of the trap something opened or listed since (a strace-free witness).
 */
export interface Trap {
	id: string;
	dir: string;
	/** False when this filesystem does not record reads (noatime): readPaths() then says nothing. */
	readsVisible: boolean;
	arm(): void;
	readPaths(): string[];
}

export async function plantTrap(root: string): Promise<Trap> {
	const home = join(root, "outside");
	const store = createFileStore({ home });
	const { id } = await store.create({ name: "trap" });
	await store.append(id, [{ recordType: "message", role: "user", content: [{ type: "text", text: TRAP_TEXT }] }]);
	const dir = store.pathsOf(id).dir;
	const paths = () => [home, join(home, "sessions"), dir, ...readdirSync(dir).map((name) => join(dir, name))];
	const watched = paths();
	const arm = () => {
		const past = new Date(Date.now() - 3 * 86_400_000);
		for (const path of watched) utimesSync(path, past, statSync(path).mtime);
	};
	arm();
	readFileSync(join(dir, "session.jsonl"));
	const readsVisible = statSync(join(dir, "session.jsonl")).atimeMs > Date.now() - 86_400_000;
	arm();
	return {
		id,
		dir,
		readsVisible,
		arm,
		readPaths: () => watched.filter((path) => statSync(path).atimeMs > Date.now() - 86_400_000),
	};
}
