import type { SessionMetadata, SessionStore } from "@agent/session-format";
import { describe, expect, it } from "vitest";
import {
	assistant,
	compaction,
	custom,
	readAllRecords,
	type StoreHandle,
	type SuiteContext,
	textOf,
	toolResult,
	user,
} from "./fixtures.js";

/** What a user sees of a whole store: every session listed (archived too), and each one's context and path. */
async function observe(store: SessionStore): Promise<unknown> {
	const { sessions } = await store.list({ archived: true });
	const seen: Record<string, unknown> = {};
	for (const metadata of sessions) {
		const opened = await store.open(metadata.id);
		seen[metadata.id] = {
			metadata,
			context: opened.context,
			path: opened.path.map((record) => record.seq),
			records: (await readAllRecords(store, metadata.id)).length,
			identity: metadata.identityKey ? (await store.findByIdentity(metadata.identityKey))?.id : undefined,
		};
	}
	return { order: sessions.map((metadata) => metadata.id), seen };
}

/** A store in which every feature was used: create with every option, branch, label, rename, fork, archive, compaction, identity, uptime, deferred. */
async function useEveryFeature(store: SessionStore): Promise<SessionMetadata[]> {
	const main = await store.create({
		name: "keep-me",
		model: "faux/faux-1",
		source: "cron",
		cronJobId: "nightly",
		systemPromptOverride: "Answer in French.",
		identityKey: "telegram:1/user:2",
		cwd: "/srv/project",
		createdBy: "ana",
	});
	await store.append(main.id, [
		user("Quelle heure est-il ?"),
		assistant("Je regarde.", { toolCallId: "tc1", usage: { input: 10, output: 5, cost: costOf(0.01) } }),
		toolResult("tc1", "10:00"),
		assistant("Il est 10 heures.", { usage: { input: 20, output: 6 } }),
	]);
	await store.append(main.id, [{ recordType: "thinking_level_change", thinkingLevel: "high" }]);
	await store.append(main.id, [{ recordType: "model_change", provider: "faux", modelId: "faux-2" }]);
	await store.append(main.id, [user("Et demain ?"), assistant("Pareil.", { model: "faux-2" })]);
	await store.label(main.id, 4, "first answer");
	await store.rename(main.id, "kept");
	await store.append(main.id, [compaction(7, "## Goal\nTell the time."), user("Merci")]);
	await store.branch(main.id, 4);
	await store.append(main.id, [user("Autre question"), custom({ state: 1 })]);
	await store.append(main.id, [
		{ recordType: "custom_message", customType: "note", content: [{ type: "text", text: "remember" }], display: false },
	]);
	await store.addUptime(main.id, 12.5);
	await store.append(main.id, [
		{ recordType: "branch_summary", fromSeq: 12, summary: "The other branch said thanks." },
		assistant("D'accord."),
	]);

	const forked = await store.fork(main.id, { name: "the fork" });
	await store.append(forked.id, [user("after the fork")]);
	const earlyFork = await store.fork(main.id, { atSeq: 4 });

	const archived = await store.create({ name: "old", identityKey: "telegram:1/user:2" });
	await store.append(archived.id, [user("old"), assistant("news")]);
	await store.archive(archived.id);
	const back = await store.create({ systemPromptOverride: "sys" });
	await store.append(back.id, [user("x")]);
	await store.archive(back.id);
	await store.unarchive(back.id);

	const imported = await store.create({
		createdAt: "2024-05-01T08:00:00.000Z",
		importedFrom: { format: "pi", sourceId: "abc" },
		name: "imported",
	});
	await store.append(imported.id, [user("from elsewhere", "2024-05-01T08:00:01.000Z")]);

	const deferred = await store.create({ deferred: true, name: "deferred" });
	await store.append(deferred.id, [user("hello?"), assistant("hi")]);
	const timed = await store.create({});
	await store.addUptime(timed.id, 3);
	return [main, forked, earlyFork, archived, back, imported, deferred, timed];
}

function costOf(total: number) {
	return { input: total / 2, output: total / 2, cacheRead: 0, cacheWrite: 0, total };
}

export function describeLogIsTruth(context: SuiteContext, handle: () => StoreHandle): void {
	describe("the log is the whole truth", () => {
		it("with every feature used, dropping every cache changes nothing: listing, metadata, contexts, paths", async () => {
			const sessions = await useEveryFeature(context.store);
			expect(sessions.length).toBe(8);
			const before = await observe(context.store);
			const fresh = await handle().dropCaches();
			expect(await observe(fresh)).toEqual(before);
			// And once more, after a second store filled the caches again from the log.
			expect(await observe(await handle().dropCaches())).toEqual(before);
		});

		it("verify passes and repair changes nothing, with the caches dropped", async () => {
			await useEveryFeature(context.store);
			const before = await observe(context.store);
			const fresh = await handle().dropCaches();
			for (const report of await fresh.verify()) {
				const repaired = await fresh.repair(report.sessionId);
				expect(repaired.ok, JSON.stringify(repaired.problems)).toBe(true);
			}
			for (const report of await fresh.verify()) expect(report.ok, JSON.stringify(report.problems)).toBe(true);
			expect(await observe(fresh)).toEqual(before);
		});

		it("the facts a user reads are the log's: name, model, source, cron job, system prompt, identity, cwd, creator, archive, leaf, fork origin, labels, uptime", async () => {
			const [main, forked, , archived] = await useEveryFeature(context.store);
			const store = await handle().dropCaches();
			const meta = await store.metadata((main as SessionMetadata).id);
			expect(meta).toMatchObject({
				name: "kept",
				source: "cron",
				cronJobId: "nightly",
				systemPromptOverride: "Answer in French.",
				identityKey: "telegram:1/user:2",
				cwd: "/srv/project",
				createdBy: "ana",
				uptimeSeconds: 12.5,
				thinkingLevel: "high",
				compactionCount: 1,
			});
			const opened = await store.open((main as SessionMetadata).id);
			expect(opened.context.systemPrompt).toBe("Answer in French.");
			expect(opened.context.messages.map(textOf)).toContain("D'accord.");
			expect(opened.context.messages.map(textOf)).not.toContain("Merci");
			const fork = await store.metadata((forked as SessionMetadata).id);
			expect(fork.name).toBe("the fork");
			expect(fork.forkedFrom?.sessionId).toBe((main as SessionMetadata).id);
			expect(fork.systemPromptOverride).toBe("Answer in French.");
			expect(fork.createdBy).toBe("ana");
			expect((await store.list({ createdBy: "ana", archived: true })).sessions.map((s) => s.id)).toContain(fork.id);
			expect((await store.metadata((archived as SessionMetadata).id)).archivedAt).toBeDefined();
			expect((await store.list()).sessions.map((s) => s.id)).not.toContain((archived as SessionMetadata).id);
			expect((await store.findByIdentity("telegram:1/user:2"))?.id).toBe((main as SessionMetadata).id);
		});

		it("a session created and never written to has an empty log (S7.1): its facts wait in the cache for its first record", async () => {
			const { store } = context;
			const { id } = await store.create({ name: "empty", systemPromptOverride: "sys" });
			expect(await readAllRecords(store, id)).toEqual([]);
			await store.rename(id, "named");
			const first = (await readAllRecords(store, id))[0] as { session?: Record<string, unknown> };
			expect(first.session).toMatchObject({ name: "empty", systemPromptOverride: "sys" });
			const fresh = await handle().dropCaches();
			expect(await fresh.metadata(id)).toMatchObject({ name: "named", systemPromptOverride: "sys" });
		});
	});
}
