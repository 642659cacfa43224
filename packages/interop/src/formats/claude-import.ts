import { truncateText } from "@agent/session-format";
import { invalidSource, sourceLabel } from "../errors.js";
import { isObject, parseJsonLines, stringField } from "../json-lines.js";
import { RecordList } from "../record-list.js";
import type { ConvertedSession, ConvertOptions } from "../types.js";
import { Warnings } from "../warnings.js";
import { CHAIN_TYPES, ClaudeState, type Line } from "./claude-state.js";

const FIRST_PROMPT_NAME_LENGTH = 80;

/**
 * Converts a Claude Code session (`~/.claude/projects/<cwd>/<sessionId>.jsonl`) or a
 * sub-agent's file (`agent-<agentId>.jsonl`). The uuid / parentUuid tree is kept (roots hang
 * from record 1, which keeps the session's envelope); assistant lines sharing `message.id`
 * are merged into one message; a `compact_boundary` and the `isCompactSummary` message after
 * it become one compaction. Lines outside the chain (titles, summaries, snapshots) are kept in
 * the chain, never as branches of their own. The active leaf is the last main-chain message
 * (in a sub-agent's file, where every line is a sidechain, the last message).
 */
export function convertClaude(lines: readonly string[], options: ConvertOptions = {}): ConvertedSession {
	const warnings = new Warnings();
	const parsed: Line[] = [];
	for (const { line, value } of parseJsonLines(lines, warnings)) {
		if (isObject(value)) parsed.push({ line, value });
		else warnings.add("a line that is not a JSON object was skipped", line);
	}
	const chain = parsed.filter(({ value }) => CHAIN_TYPES.has(String(value.type)) && typeof value.uuid === "string");
	const firstChain = chain[0]?.value;
	const { sourceId, agentId, parentSessionId } = claudeIds(chain, options.sourcePath);
	const list = new RecordList(warnings);
	const headerSeq = list.custom(
		"claude:session",
		{
			sessionId: firstChain?.sessionId,
			cwd: firstChain?.cwd,
			version: firstChain?.version,
			gitBranch: firstChain?.gitBranch,
			...(agentId === undefined ? {} : { agentId }),
		},
		null,
		stringField(firstChain ?? {}, "timestamp"),
	);
	const uuids = new Set(chain.map(({ value }) => value.uuid as string));
	const state = new ClaudeState(list, warnings, headerSeq, uuids);
	for (const entry of parsed) state.read(entry);
	state.finish();

	const result: ConvertedSession = { format: "claude", sourceId, records: list.records, warnings: warnings.list() };
	const createdAt = stringField(firstChain ?? {}, "timestamp");
	if (createdAt) result.createdAt = createdAt;
	const cwd = stringField(firstChain ?? {}, "cwd");
	if (cwd) result.cwd = cwd;
	const name = state.title ?? state.summary ?? firstPrompt(chain, agentId !== undefined);
	if (name) result.name = name;
	if (state.model) result.model = `anthropic/${state.model}`;
	if (parentSessionId) result.parentSourceId = parentSessionId;
	return result;
}

/**
 * The session id: the file's name when it is one of the ids in it, else the first id. A
 * sub-agent's file (every line a sidechain, with an agentId) is keyed `<sessionId>/agent-<agentId>`
 * and names the session it was spawned from.
 */
function claudeIds(
	chain: readonly Line[],
	sourcePath: string | undefined,
): { sourceId: string; agentId?: string; parentSessionId?: string } {
	const ids = new Set(chain.map(({ value }) => value.sessionId).filter((id): id is string => typeof id === "string"));
	const base = sourcePath
		?.split(/[\\/]/)
		.pop()
		?.replace(/\.jsonl$/, "");
	const first = ids.values().next().value;
	const agentId = chain.find(({ value }) => typeof value.agentId === "string")?.value.agentId;
	if (first && typeof agentId === "string" && chain.every(({ value }) => value.isSidechain === true)) {
		return { sourceId: `${first}/agent-${agentId}`, agentId, parentSessionId: first };
	}
	if (base && ids.has(base)) return { sourceId: base };
	if (first) return { sourceId: first };
	throw invalidSource(
		sourceLabel(sourcePath),
		"has no user or assistant line with a sessionId and uuid",
		"Check that this is a Claude Code session (~/.claude/projects/<project>/<sessionId>.jsonl), or use --from auto",
	);
}

/** The first thing the user typed (not a meta or command line), as a name when nothing better names the session. */
function firstPrompt(chain: readonly Line[], isSubAgent: boolean): string | undefined {
	for (const { value } of chain) {
		if (value.type !== "user" || value.isMeta === true || (value.isSidechain === true && !isSubAgent)) continue;
		const message = isObject(value.message) ? value.message : {};
		const content = message.content;
		const text =
			typeof content === "string"
				? content
				: Array.isArray(content)
					? content.map((block) => (isObject(block) && block.type === "text" ? String(block.text) : "")).join(" ")
					: "";
		const line = text
			.replace(/<[^>]*>/g, " ")
			.replace(/\s+/g, " ")
			.trim();
		if (line) return truncateText(line, FIRST_PROMPT_NAME_LENGTH);
	}
	return undefined;
}
