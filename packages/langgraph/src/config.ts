import type { RunnableConfig } from "@langchain/core/runnables";
import { invalidArgument } from "./errors.js";

/** The config's thread_id as the thread's identity key; undefined when absent and not `required` (for `what`). */
export function threadIdOf(config: RunnableConfig | undefined, what?: string): string | undefined {
	const raw: unknown = config?.configurable?.thread_id;
	if (raw === undefined || raw === null || raw === "") {
		if (what === undefined) return undefined;
		throw invalidArgument(
			`${what} needs config.configurable.thread_id, the thread the state belongs to: graph.invoke(input, { configurable: { thread_id: "my-thread" } })`,
		);
	}
	if (typeof raw !== "string" && typeof raw !== "number") {
		throw invalidArgument(`config.configurable.thread_id must be a string (or a number), got ${typeof raw}`);
	}
	return String(raw);
}

/** The config's checkpoint_ns: "" (the root graph) when absent. */
export function namespaceOf(config: RunnableConfig | undefined): string {
	const ns: unknown = config?.configurable?.checkpoint_ns ?? "";
	if (typeof ns !== "string") {
		throw invalidArgument(
			`config.configurable.checkpoint_ns must be a string ("" for the root graph), got ${typeof ns}`,
		);
	}
	return ns;
}

export function checkpointIdOf(config: RunnableConfig | undefined): string | undefined {
	const id: unknown = config?.configurable?.checkpoint_id || config?.configurable?.thread_ts;
	if (id === undefined || id === null || id === "") return undefined;
	if (typeof id !== "string")
		throw invalidArgument(`config.configurable.checkpoint_id must be a string, got ${typeof id}`);
	return id;
}
