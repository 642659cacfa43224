import { fileURLToPath } from "node:url";
import { Child, type ChildOutcome } from "@agent/adapter-testing";
import type { UIMessage } from "ai";
import type { TestStore } from "./stores.js";

const SCRIPT = fileURLToPath(new URL("./chat-child.mjs", import.meta.url));

export interface ChatTask {
	command: "load" | "save";
	chatId: string;
	messages?: UIMessage[];
	/** Wait at a start line (printing "waiting") until the parent says go. */
	barrier?: boolean;
}

/** test/chat-child.mjs in a new process against the test store. */
export function chatChild(target: TestStore, task: ChatTask): Child<ChildOutcome & { result?: unknown }> {
	return new Child(SCRIPT, { kind: target.kind, location: target.location, ...task });
}

/** Runs one child to its end; resolves with its result, or fails with what it said. */
export async function runChild(target: TestStore, task: ChatTask): Promise<unknown> {
	const child = chatChild(target, task);
	const outcome = await child.outcome;
	if (!outcome.ok) throw new Error(`chat-child ${task.command} failed: ${outcome.message}\n${child.stderr}`);
	return outcome.result;
}

/**
 * Several children that each load, wait at a start line until every one of them is there, then
 * go together: their saves overlap however slowly each process started.
 */
export async function runTogether(target: TestStore, tasks: ChatTask[]): Promise<unknown[]> {
	const children = tasks.map((task) => chatChild(target, { ...task, barrier: true }));
	await Promise.all(children.map((child) => child.waiting()));
	for (const child of children) child.go();
	const outcomes = await Promise.all(children.map((child) => child.outcome));
	return outcomes.map((outcome, index) => {
		if (!outcome.ok) throw new Error(`chat-child ${index} failed: ${outcome.message}\n${children[index]?.stderr}`);
		return outcome.result;
	});
}
