// Helpers for this package's tests: a file store in a temporary directory, hand-made checkpoints,
// and the records of a session.
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SessionStore, StoredRecord } from "@agent/session-format";
import { createFileStore, type FileSessionStore } from "@agent/session-fs";
import type { RunnableConfig } from "@langchain/core/runnables";
import { type Checkpoint, emptyCheckpoint, uuid6 } from "@langchain/langgraph-checkpoint";
import { afterEach } from "vitest";
import { StoreCheckpointer } from "./checkpointer.js";

/** A config of the root graph of a thread, without a checkpoint. */
export const rootOf = (threadId: string) => ({ configurable: { thread_id: threadId, checkpoint_ns: "" } });

/** For a test file: makes a file store in a temporary directory (and a checkpointer over it), removed after each test. */
export function temporaryStores(): () => { store: FileSessionStore; checkpointer: StoreCheckpointer } {
	const homes: string[] = [];
	afterEach(() => {
		for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
	});
	return () => {
		const home = mkdtempSync(join(tmpdir(), "agent-langgraph-unit-"));
		homes.push(home);
		const store = createFileStore({ home });
		return { store, checkpointer: new StoreCheckpointer({ store }) };
	};
}

export async function recordsOf(store: SessionStore, id: string): Promise<StoredRecord[]> {
	const out: StoredRecord[] = [];
	for await (const record of store.read(id)) out.push(record);
	return out;
}

export async function sessionIdOf(store: SessionStore, threadId: string): Promise<string> {
	const session = await store.findByIdentity(threadId);
	if (!session) throw new Error(`no session for thread ${threadId}`);
	return session.id;
}

export function logBytes(store: FileSessionStore, id: string): number {
	return statSync(store.pathsOf(id).log).size;
}

/** Puts a checkpoint with these values (each given channel at its version) as a child of `parent`. */
export async function putValues(
	checkpointer: StoreCheckpointer,
	parent: RunnableConfig,
	values: Record<string, unknown>,
	versions: Record<string, number>,
	changed: string[] = Object.keys(versions),
): Promise<RunnableConfig> {
	const checkpoint: Checkpoint = {
		...emptyCheckpoint(),
		id: uuid6(-3),
		channel_values: values,
		channel_versions: versions,
	};
	const newVersions = Object.fromEntries(changed.map((channel) => [channel, versions[channel] as number]));
	return checkpointer.put(parent, checkpoint, { source: "loop", step: 0, parents: {} }, newVersions);
}

/** The custom records of one type, with their data. */
export function customOf(
	records: StoredRecord[],
	customType: string,
): { seq: number; data: Record<string, unknown> }[] {
	return records.flatMap((record) =>
		record.recordType === "custom" && record.customType === customType
			? [{ seq: record.seq, data: record.data as Record<string, unknown> }]
			: [],
	);
}
