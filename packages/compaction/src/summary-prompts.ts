import {
	BRANCH_SUMMARY_PROMPT,
	BRANCH_SUMMARY_UPDATE_PROMPT,
	SUMMARIZATION_PROMPT,
	TURN_PREFIX_PROMPT,
	TURN_PREFIX_UPDATE_PROMPT,
	UPDATE_SUMMARIZATION_PROMPT,
} from "./prompts.js";

/**
 * Which instruction a summarization call carries. The "-update" kinds (and "update") fold new
 * material into a summary given in <previous-summary> tags.
 */
export type SummaryKind = "initial" | "update" | "turn-prefix" | "turn-prefix-update" | "branch" | "branch-update";

const INSTRUCTIONS: Readonly<Record<SummaryKind, string>> = {
	initial: SUMMARIZATION_PROMPT,
	update: UPDATE_SUMMARIZATION_PROMPT,
	"turn-prefix": TURN_PREFIX_PROMPT,
	"turn-prefix-update": TURN_PREFIX_UPDATE_PROMPT,
	branch: BRANCH_SUMMARY_PROMPT,
	"branch-update": BRANCH_SUMMARY_UPDATE_PROMPT,
};

/** The kind that folds more material into a summary of the given kind. */
export const FOLD_KIND: Readonly<Record<SummaryKind, SummaryKind>> = {
	initial: "update",
	update: "update",
	"turn-prefix": "turn-prefix-update",
	"turn-prefix-update": "turn-prefix-update",
	branch: "branch-update",
	"branch-update": "branch-update",
};

export function instructionFor(kind: SummaryKind): string {
	return INSTRUCTIONS[kind];
}

export function isFoldKind(kind: SummaryKind): boolean {
	return kind === "update" || kind === "turn-prefix-update" || kind === "branch-update";
}

/**
 * The user message of a summarization call: the serialized conversation in <conversation>
 * tags ("the messages above"), then the previous summary in <previous-summary> tags when the
 * kind folds into one, then the instruction, then any custom instructions.
 */
export function renderSummaryPrompt(
	kind: SummaryKind,
	conversation: string,
	previousSummary?: string,
	customInstructions?: string,
): string {
	let text = `<conversation>\n${conversation}\n</conversation>\n\n`;
	if (isFoldKind(kind)) text += `<previous-summary>\n${previousSummary ?? ""}\n</previous-summary>\n\n`;
	text += INSTRUCTIONS[kind];
	const custom = customInstructions?.trim();
	if (custom) text += `\n\nAdditional instructions for this summary:\n${custom}`;
	return text;
}
