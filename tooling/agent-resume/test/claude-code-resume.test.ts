import { CLAUDE_CODE_VERSIONS, claudeCode } from "../src/agent-tools.js";
import { startAnthropicApi } from "../src/anthropic-api.js";
import { anthropicSteps } from "../src/conversation.js";
import { describeResume } from "../src/resume-suite.js";
import { resumeInClaudeCode } from "../src/run-agent.js";

await describeResume({
	title: "Claude Code",
	byId: "claude -p --resume <id>",
	latest: "claude -p --continue",
	tools: CLAUDE_CODE_VERSIONS.map(claudeCode),
	check: (command) => ({
		format: "claude",
		agentFolder: ".claude",
		startApi: startAnthropicApi,
		command,
		resume: resumeInClaudeCode,
		steps: anthropicSteps,
	}),
	knownOutbound: {
		// Asks Anthropic whether the organization of a first-party API key allows metrics
		// (api/claude_code/organizations/metrics_enabled); no switch turns that off in 2.1.39.
		"2.1.39": ["CONNECT api.anthropic.com:443"],
	},
});
