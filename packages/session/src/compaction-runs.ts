import {
	type CompleteFn,
	estimateContextTokens,
	oversizedBlockTokens,
	shouldCompact,
	compact as summarize,
	truncateOversizedBlocks,
} from "@agent/compaction";
import {
	buildContextFromPath,
	type CompactionSettings,
	type CompactionTrigger,
	type OpenedSession,
	type RecordInput,
	type SessionLease,
	type SessionRecord,
} from "@agent/session-format/reading";
import { describeMs } from "./deadlines.js";
import { toEventError } from "./events.js";
import { callWithProgress } from "./model-call.js";
import type { ResolvedModel } from "./model-names.js";
import { loadPiAi } from "./pi-ai.js";
import { previewCompaction } from "./plan-compaction.js";
import type { CompactOptions, RuntimeCore } from "./runtime-options.js";

/**
 * The runtime's compactions: when a turn compacts (threshold, overflow), which model summarizes,
 * and the events a compaction tells (started, progress over the whole plan, skipped, completed,
 * failed). The caller holds the session's lease; the compaction record is appended through it.
 */
export class CompactionRuns {
	private warnedKeepRecentCap = false;

	constructor(private readonly core: RuntimeCore) {}

	/**
	 * Compacts under the held lease when the trigger says so (for "threshold", judged on
	 * `resumed`, the session as just resumed); returns the compaction record if it did.
	 */
	async auto(
		lease: SessionLease,
		model: ResolvedModel,
		trigger: CompactionTrigger,
		signal?: AbortSignal,
		resumed?: OpenedSession,
	): Promise<SessionRecord | undefined> {
		const { config, store } = this.core;
		const settings = config.compaction;
		if (!settings.enabled) return undefined;
		if (trigger === "threshold") {
			const opened = resumed ?? (await store.open(lease.sessionId));
			const systemPrompt = opened.context.systemPrompt;
			// Judged on what the model is sent: blocks too big for the window are cut, not summarized.
			const maxBlockTokens = oversizedBlockTokens(model.model.contextWindow, settings.reserveTokens);
			const sent = truncateOversizedBlocks(buildContextFromPath(opened.path).messages, maxBlockTokens).messages;
			const tokens = estimateContextTokens(sent, systemPrompt ? { systemPrompt } : {});
			if (!shouldCompact(tokens, model.model.contextWindow, settings)) return undefined;
		}
		const summarizer = config.compactionModel ? await this.core.resolve(config.compactionModel) : model;
		return this.underLease(lease, summarizer, trigger, {
			contextWindow: model.model.contextWindow,
			...(signal ? { signal } : {}),
		});
	}

	/** Plans and runs a compaction under the held lease; undefined when there is nothing to compact (or it was skipped). */
	async underLease(
		lease: SessionLease,
		model: ResolvedModel,
		trigger: CompactionTrigger,
		options: CompactOptions,
	): Promise<SessionRecord | undefined> {
		const { events, store } = this.core;
		const sessionId = lease.sessionId;
		const { plan, keepRecentTokens, reduction, chunks } = await previewCompaction(
			store,
			sessionId,
			model,
			this.settingsFor(options),
			options,
		);
		if (keepRecentTokens.capped && !this.warnedKeepRecentCap) {
			this.warnedKeepRecentCap = true;
			(this.core.options.onWarning ?? console.warn)(`@agent/session: ${keepRecentTokens.capped}`);
		}
		if (!plan) return undefined;
		if (trigger === "threshold" && reduction && !reduction.reduces) {
			// Summarizing would only spend calls: the tokens are in what is kept word for word. (A manual
			// compaction runs as asked, and an overflow's is the provider's word against our estimate.)
			events.emit({
				type: "compaction.skipped",
				sessionId,
				trigger,
				reason: reduction.reason ?? "compacting cannot reduce the context",
				contextTokens: plan.contextTokens,
				tokensAfter: reduction.tokensAfter,
			});
			return undefined;
		}
		const messagesTotal = plan.parts.reduce((sum, part) => sum + part.messageCount, 0);
		const estimated = chunks ? { chunksEstimated: chunks.chunks } : {};
		events.emit({
			type: "compaction.started",
			sessionId,
			trigger,
			messages: messagesTotal,
			tokensBefore: plan.tokensBefore,
			...estimated,
		});
		// Calls and messages of the parts already done, so that progress counts over the whole plan.
		const done = { chunks: 0, messages: 0, part: 0, partChunks: 0 };
		try {
			const input: RecordInput = await summarize(plan, {
				model: model.model,
				complete: this.completeWithProgress(),
				onProgress: (progress) => {
					if (progress.partIndex !== done.part) {
						const previous = plan.parts[done.part];
						done.messages += previous?.messageCount ?? 0;
						done.chunks += done.partChunks;
						done.part = progress.partIndex;
					}
					done.partChunks = progress.chunks;
					events.emit({
						type: "compaction.progress",
						sessionId,
						trigger,
						chunks: done.chunks + progress.chunks,
						...estimated,
						messagesDone: done.messages + progress.messagesDone,
						messagesTotal,
					});
				},
				...(model.apiKey ? { completeOptions: { apiKey: model.apiKey } } : {}),
				trigger,
				...(options.signal ? { signal: options.signal } : {}),
			});
			const result = await lease.append([input]);
			const record = result.records[0] as SessionRecord;
			events.emit({ type: "record.appended", sessionId, record });
			events.emit({ type: "compaction.completed", sessionId, record });
			events.emit({ type: "session.updated", sessionId, metadata: result.metadata });
			return record;
		} catch (error) {
			events.emit({ type: "compaction.failed", sessionId, trigger, error: toEventError(error) });
			throw error;
		}
	}

	/**
	 * The summarizer's call, which must keep making progress (model_call_timeout_seconds): a call
	 * that stalls ends as a provider error, which compaction retries like any other.
	 */
	private completeWithProgress(): CompleteFn {
		const noProgressMs = this.core.modelCallTimeoutMs();
		return async (model, context, options) => {
			const { stream } = await loadPiAi();
			const { reply, stalled } = await callWithProgress((signal) => stream(model, context, { ...options, signal }), {
				model,
				noProgressMs,
				...(options?.signal ? { signal: options.signal } : {}),
			});
			if (!stalled) return reply;
			const errorMessage = `the summarizer made no progress for ${describeMs(noProgressMs)} (model_call_timeout_seconds)`;
			return { ...reply, stopReason: "error", errorMessage };
		};
	}

	/** A manual compaction's summarizer: the given model, else compaction_model, else the session's. */
	async manualSummarizer(sessionId: string, model?: string): Promise<ResolvedModel> {
		const { config, store } = this.core;
		if (model !== undefined) return this.core.resolve(model);
		if (config.compactionModel) return this.core.resolve(config.compactionModel);
		const metadata = await store.metadata(sessionId);
		return this.core.resolve(metadata.model || this.core.defaultModel());
	}

	/** The configured compaction settings, with a caller's keepRecentTokens over them. */
	settingsFor(options: { keepRecentTokens?: number }): CompactionSettings {
		const settings = { ...this.core.config.compaction };
		if (options.keepRecentTokens !== undefined) settings.keepRecentTokens = options.keepRecentTokens;
		return settings;
	}
}
