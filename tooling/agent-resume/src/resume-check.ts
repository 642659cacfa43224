import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { ourSteps, type Step } from "./conversation.js";
import type { FakeApi } from "./fake-api.js";
import { agentSessions, exportForResume, type ResumeNote, sessionWith } from "./our-cli.js";
import { type AgentRun, agentPlace, type ResumeInAgent } from "./run-agent.js";

/** The question each check asks the resumed session, and the fake model's answer to it. */
export const QUESTION = "Is there anything else on the list?";
export const ANSWER = "Nothing else: just the oat milk.";

export interface ResumeCheck<Request> {
	format: "claude" | "codex";
	/** The agent's folder under the home: `.claude` or `.codex`. */
	agentFolder: string;
	/** The command that runs the agent. */
	command: string[];
	startApi(answer: string): Promise<FakeApi<Request>>;
	resume: ResumeInAgent;
	/** A request as conversation steps, without what the tool adds by itself. */
	steps(request: Request): Step[];
}

export interface Resumed {
	/** Our session's context, as steps. */
	ours: Step[];
	/** Each model request that carried the question, as steps. */
	asked: Step[][];
	/** What the tool tried to reach besides the fake API (refused). */
	outbound: string[];
	run: AgentRun;
	note: ResumeNote;
	/** Our store's home (for importing the continued session back). */
	store: string;
	/** The temporary folder holding the store and the agent's home: remove it when done. */
	root: string;
}

/**
 * A session of ours holding `records`, exported with `agent-sessions export --format claude|codex`,
 * put where the export's note says, and resumed in the real tool with QUESTION against a fake model
 * API that answers ANSWER: what the tool sent, and our context to compare it with. `latest` resumes
 * the project's latest session instead of naming the id: the tool's own listing must find the file.
 */
export async function resumeOurSession<Request>(
	check: ResumeCheck<Request>,
	name: string,
	records: object[],
	how: "by id" | "latest" = "by id",
): Promise<Resumed> {
	const root = await fs.mkdtemp(path.join(os.tmpdir(), `agent-resume-${check.format}-`));
	const store = path.join(root, "store");
	const place = await agentPlace(root, check.agentFolder);
	const id = await sessionWith(store, name, records);
	const ours = ourSteps(JSON.parse((await agentSessions(store, ["context", id, "--json"])).stdout));
	const note = await exportForResume(store, id, check.format, place);
	const api = await check.startApi(ANSWER);
	try {
		const which = how === "latest" ? "latest" : { sessionId: note.sessionId };
		const run = await check.resume(check.command, place, api, which, QUESTION);
		const asked = api.requests
			.map((request) => check.steps(request))
			.filter((steps) => steps.some((step) => "user" in step && step.user === QUESTION));
		return { ours, asked, outbound: [...api.outbound], run, note, store, root };
	} finally {
		await api.close();
	}
}

/** The file the tool continued, imported into our store: its context as steps. */
export async function importedBack(resumed: Resumed): Promise<Step[]> {
	const [result] = JSON.parse(
		(await agentSessions(resumed.store, ["import", resumed.note.file, "--json"])).stdout,
	) as Array<{ id: string; status: string }>;
	if (!result?.id) throw new Error(`agent-resume: ${resumed.note.file} did not import`);
	return ourSteps(JSON.parse((await agentSessions(resumed.store, ["context", result.id, "--json"])).stdout));
}
