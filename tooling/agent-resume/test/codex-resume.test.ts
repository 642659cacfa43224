import { CODEX_VERSIONS, codex } from "../src/agent-tools.js";
import { responsesSteps } from "../src/conversation.js";
import { startResponsesApi } from "../src/openai-api.js";
import { describeResume } from "../src/resume-suite.js";
import { resumeInCodex } from "../src/run-agent.js";

await describeResume({
	title: "Codex",
	byId: "codex exec resume <id>",
	latest: "codex exec resume --last",
	tools: CODEX_VERSIONS.map(codex),
	check: (command) => ({
		format: "codex",
		agentFolder: ".codex",
		startApi: startResponsesApi,
		command,
		resume: resumeInCodex,
		steps: responsesSteps,
	}),
});
