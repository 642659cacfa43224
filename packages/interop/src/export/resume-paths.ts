import { join } from "node:path";
import type { AgentTarget } from "./agent-carry.js";

/**
 * Where Claude Code keeps a session, so that `claude --resume <sessionId>` run in `cwd` finds it:
 * `<claudeHome>/projects/<cwd with every character but ASCII letters and digits as "-">/<sessionId>.jsonl`
 * (`claudeHome` is ~/.claude, or $CLAUDE_CONFIG_DIR).
 */
export function claudeSessionPath(claudeHome: string, cwd: string, sessionId: string): string {
	return join(claudeHome, "projects", cwd.replace(/[^A-Za-z0-9]/g, "-"), `${sessionId}.jsonl`);
}

/**
 * Where Codex keeps a rollout, so that `codex resume <id>` finds it:
 * `<codexHome>/sessions/YYYY/MM/DD/rollout-YYYY-MM-DDThh-mm-ss-<id>.jsonl` (`codexHome` is ~/.codex,
 * or $CODEX_HOME), dated by the session's creation (UTC).
 */
export function codexRolloutPath(codexHome: string, createdAt: string, id: string): string {
	const date = new Date(Date.parse(createdAt) || 0).toISOString();
	const [day = "", time = ""] = date.split("T");
	const [year, month, dom] = day.split("-");
	const stamp = `${day}T${time.slice(0, 8).replace(/:/g, "-")}`;
	return join(codexHome, "sessions", year ?? "", month ?? "", dom ?? "", `rollout-${stamp}-${id}.jsonl`);
}

/**
 * How to resume an export in its agent: where to put the file (`agentHome` is the agent's own
 * folder: ~/.claude or $CLAUDE_CONFIG_DIR, ~/.codex or $CODEX_HOME) and the command to run.
 */
export function resumeHint(
	target: AgentTarget,
	file: { agentHome: string; cwd: string; sessionId: string; createdAt: string },
): string {
	if (target === "claude") {
		const path = claudeSessionPath(file.agentHome, file.cwd, file.sessionId);
		return `To resume it in Claude Code, put the file at ${path} and run \`claude --resume ${file.sessionId}\` in ${file.cwd}.`;
	}
	const path = codexRolloutPath(file.agentHome, file.createdAt, file.sessionId);
	return `To resume it in Codex, put the file at ${path} and run \`codex resume ${file.sessionId}\`.`;
}
