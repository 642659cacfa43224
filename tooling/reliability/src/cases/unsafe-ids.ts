import { join, sep } from "node:path";
import { isAgentSessionError, type SessionStore } from "@agent/session-format";
import { createFileStore } from "@agent/session-fs";
import { unsafeIds } from "../fuzz/unsafe-ids.js";
import type { CaseContext, ReliabilityCase } from "../support/case.js";
import { request } from "../support/http.js";
import { makeSandbox } from "../support/sandbox.js";
import { startServer } from "../support/server-process.js";
import { plantTrap, TRAP_TEXT } from "../support/trap.js";
import { snapshotTree, treeChanges } from "../support/tree-snapshot.js";

/** Every store operation that takes a session id. */
const OPERATIONS: [string, (store: SessionStore, id: string) => Promise<unknown>][] = [
	["open", (store, id) => store.open(id)],
	["append", (store, id) => store.append(id, [{ recordType: "session_info", name: "x" }])],
	[
		"read",
		async (store, id) => {
			for await (const _ of store.read(id)) {
				/* drain */
			}
		},
	],
	[
		"readFrom",
		async (store, id) => {
			for await (const _ of store.readFrom(id, 1)) {
				/* drain */
			}
		},
	],
	["tail", (store, id) => store.tail(id, 5)],
	["metadata", (store, id) => store.metadata(id)],
	["lease", async (store, id) => (await store.lease(id)).release()],
	["fork", (store, id) => store.fork(id)],
	["branch", (store, id) => store.branch(id, 1)],
	["rename", (store, id) => store.rename(id, "x")],
	["label", (store, id) => store.label(id, 1, "x")],
	["archive", (store, id) => store.archive(id)],
	["unarchive", (store, id) => store.unarchive(id)],
	["addUptime", (store, id) => store.addUptime(id, 1)],
	["delete", (store, id) => store.delete(id)],
	["verify", (store, id) => store.verify(id)],
	["repair", (store, id) => store.repair(id)],
];

/** Routes that take an id; a traversal must get 400 (or 404 when the path no longer matches a route), never a 2xx or 5xx. */
const ROUTES: [string, string, string | undefined][] = [
	["GET", "", undefined],
	["PATCH", "", '{"name":"x"}'],
	["DELETE", "", undefined],
	["GET", "/records", undefined],
	["GET", "/context", undefined],
	["GET", "/events", undefined],
	["POST", "/messages?wait=1", '{"content":"hi"}'],
	["POST", "/compact", "{}"],
	["POST", "/fork", "{}"],
	["POST", "/branch", '{"atSeq":1}'],
];

/**
 * Ids with traversal, NUL bytes, look-alike Unicode and near misses of the ULID form, through
 * every store operation and every server route: each is refused as INVALID_SESSION_ID, and
 * nothing reaches the filesystem: no file appears, changes or vanishes anywhere in the sandbox,
 * a session planted where a traversal would land is never read (its access times stay old) nor returned.
 */
async function run(context: CaseContext): Promise<void> {
	const sandbox = makeSandbox("unsafe-ids");
	try {
		const store = createFileStore({ home: sandbox.home });
		const real = await store.create({ name: "../../outside/not-a-path" });
		await store.append(real.id, [{ recordType: "message", role: "user", content: [{ type: "text", text: "hi" }] }]);
		const trap = await plantTrap(sandbox.root);
		const ids = unsafeIds(trap.id, trap.dir);
		const before = snapshotTree(sandbox.root);
		trap.arm();

		let refused = 0;
		for (const id of ids) {
			for (const [name, operation] of OPERATIONS) {
				try {
					await operation(store, id);
					context.check(false, `store.${name}(${JSON.stringify(id.slice(0, 60))}) succeeded`);
				} catch (error) {
					const ok = isAgentSessionError(error, "INVALID_SESSION_ID");
					if (ok) refused++;
					context.check(
						ok,
						`store.${name}(${JSON.stringify(id.slice(0, 60))}) threw ${(error as Error)?.stack?.slice(0, 300)}`,
					);
				}
			}
		}
		context.figure("unsafe ids", ids.length);
		context.figure(
			"store operations refused with INVALID_SESSION_ID",
			`${refused} of ${ids.length * OPERATIONS.length}`,
		);

		const server = await startServer(sandbox.home);
		let answered = 0;
		try {
			for (const id of ids) {
				const encoded = encodeURIComponent(id).replaceAll(".", "%2E");
				for (const [method, suffix, body] of ROUTES) {
					const answer = await request(
						server.url,
						method,
						`/api/sessions/${encoded}${suffix}`,
						body === undefined ? {} : { body },
					);
					const refusedHere =
						answer.status === 400
							? answer.code === "INVALID_SESSION_ID"
							: answer.status === 404 && answer.code === "NOT_FOUND";
					if (refusedHere) answered++;
					context.check(
						refusedHere,
						`${method} /api/sessions/${encoded.slice(0, 60)}${suffix} answered ${answer.status} ${answer.text.slice(0, 200)}`,
					);
					context.check(
						!answer.text.includes(TRAP_TEXT),
						`${method} ${encoded.slice(0, 60)}${suffix} returned the planted session`,
					);
				}
			}
		} finally {
			await server.stop();
		}
		context.figure(
			"server requests refused (400 INVALID_SESSION_ID, or 404 no such route)",
			`${answered} of ${ids.length * ROUTES.length}`,
		);

		const read = trap.readPaths();
		if (trap.readsVisible) context.check(read.length === 0, `the planted session was read: ${read.join(", ")}`);
		context.figure(
			"planted session read (by atime)",
			trap.readsVisible ? read.length : "not measurable: this filesystem keeps no access times",
		);
		if (trap.readsVisible) {
			// The control: a legitimate read of the planted session is seen by the same witness.
			for await (const _ of createFileStore({ home: join(sandbox.root, "outside") }).read(trap.id)) {
				// drain
			}
			context.check(
				trap.readPaths().length > 0,
				"the access-time witness did not see a real read of the planted session",
			);
		}
		const changes = treeChanges(before, snapshotTree(sandbox.root)).filter((change) => !isServerBookkeeping(change));
		context.check(changes.length === 0, `the filesystem changed: ${changes.slice(0, 10).join(", ")}`);
		context.figure("files created, changed or removed by the unsafe ids", changes.length);
	} finally {
		sandbox.remove();
	}
}

/** The server may keep its own files in the home (outside sessions/); nothing under sessions/ or outside the home may change. */
function isServerBookkeeping(change: string): boolean {
	const path = change.slice(2);
	const sessions = join("home", "sessions");
	return (
		(path === "home" || path.startsWith(`home${sep}`)) && path !== sessions && !path.startsWith(`${sessions}${sep}`)
	);
}

export const unsafeIdsCase: ReliabilityCase = { name: "unsafe-ids", run };
