import type { RecordInput, SessionStore } from "@agent/session-format";
import { linkKey, StoredImport, SUBAGENT_OF_TYPE, SUBAGENT_TYPE } from "./stored-import.js";

export interface SubAgentLink {
	parentId: string;
	parentSourceId: string;
	childId: string;
	childSourceId: string;
}

/**
 * Links a sub-agent's session and the session that spawned it, both imported: a custom record
 * in each names the other (`interop:subagent` in the parent, `interop:subagent-of` in the
 * sub-agent), so `show` of either leads to the other. The record continues the active path
 * (it adds nothing to the context, and a later import continues below it); a link already
 * written is not written again. Returns whether anything was written.
 */
export async function linkSubAgent(store: SessionStore, link: SubAgentLink): Promise<boolean> {
	const wroteChild = await ensureLink(store, link.childId, SUBAGENT_OF_TYPE, {
		sessionId: link.parentId,
		sourceId: link.parentSourceId,
	});
	const wroteParent = await ensureLink(store, link.parentId, SUBAGENT_TYPE, {
		sessionId: link.childId,
		sourceId: link.childSourceId,
	});
	return wroteChild || wroteParent;
}

async function ensureLink(
	store: SessionStore,
	id: string,
	customType: string,
	data: { sessionId: string; sourceId: string },
): Promise<boolean> {
	const stored = await StoredImport.read(store, id);
	if (stored.links.has(linkKey(customType, data.sessionId))) return false;
	const metadata = await store.metadata(id);
	const leaf = metadata.leafSeq ?? stored.lastSeq;
	const record: RecordInput = { recordType: "custom", customType, data };
	if (leaf > 0) record.parentSeq = stored.attachPoint(leaf);
	await store.append(id, [record]);
	return true;
}
