/**
 * The prompts of spec §7.5.4, verbatim (line breaks included), plus the prompts this package
 * adds for split turns and branch summaries.
 */

/** The system prompt of every summarization call (spec §7.5.4, verbatim). */
export const SUMMARIZATION_SYSTEM_PROMPT = `You are a context summarization assistant. Your task is to read a conversation between
a user and an AI agent, then produce a structured summary following the exact format
specified. Do NOT continue the conversation. Do NOT respond to any questions in the
conversation. ONLY output the structured summary.`;

/**
 * The format part of the initial prompt, from "Use this EXACT format:" to its end (spec §7.5.4,
 * verbatim). The update prompt's placeholder "[Same format sections as initial prompt]" stands
 * for exactly this text.
 */
export const SUMMARY_FORMAT = `Use this EXACT format:

## Goal
[What is the user trying to accomplish? Can be multiple items.]

## Constraints & Preferences
- [Any constraints, preferences, or requirements mentioned by user]

## Progress
### Done
- [x] [Completed tasks/changes]

### In Progress
- [ ] [Current work]

### Blocked
- [Issues preventing progress, if any]

## Key Decisions
- **[Decision]**: [Brief rationale]

## Next Steps
1. [Ordered list of what should happen next]

## Critical Context
- [Any data, examples, or references needed to continue]

Keep each section concise. Preserve exact file paths, function names, and error messages.`;

/** The summarization prompt of the first compaction (spec §7.5.4, verbatim). */
export const SUMMARIZATION_PROMPT = `The messages above are a conversation to summarize. Create a structured context
checkpoint summary that another LLM will use to continue the work.

${SUMMARY_FORMAT}`;

/**
 * The update prompt, used when a previous summary exists (spec §7.5.4, verbatim, with the
 * placeholder "[Same format sections as initial prompt]" replaced by {@link SUMMARY_FORMAT}).
 */
export const UPDATE_SUMMARIZATION_PROMPT = `The messages above are NEW conversation messages to incorporate into the existing
summary provided in <previous-summary> tags.

Update the existing structured summary with new information. RULES:
- PRESERVE all existing information from the previous summary
- ADD new progress, decisions, and context from the new messages
- UPDATE the Progress section: move items from "In Progress" to "Done" when completed
- UPDATE "Next Steps" based on what was accomplished
- PRESERVE exact file paths, function names, and error messages
- If something is no longer relevant, you may remove it

${SUMMARY_FORMAT}`;

/**
 * For a split turn: the beginning of a turn whose end stays in the context verbatim.
 * Our own wording; the spec has no prompt for it.
 */
export const TURN_PREFIX_PROMPT = `The messages above are the FIRST PART of a single turn that is still in progress. Its
later part stays in the context word for word, right after your summary, so the agent will
read your summary first and then continue from that later part.

Write a short summary of this first part that makes the later part understandable:

### Request
- [What the user asked for in this turn, in their own terms]

### Work So Far
- [What the agent did in this part: commands run, files read or changed, results seen]

### Needed Next
- [Facts, values, and open questions the later part depends on]

Preserve exact file paths, function names, and error messages. Do not invent what happens later.`;

/** For a split turn whose first part is too big for one call: folds the next piece into the summary so far. */
export const TURN_PREFIX_UPDATE_PROMPT = `The messages above continue the FIRST PART of a turn that is still in progress. The
summary of the earlier messages of that first part is in <previous-summary> tags.

Extend that summary with the messages above. Keep everything it says, add what is new, and
keep its three sections (### Request, ### Work So Far, ### Needed Next).

Preserve exact file paths, function names, and error messages. Do not invent what happens later.`;

/** For a branch summary: the conversation of a branch the user left. Our own wording. */
export const BRANCH_SUMMARY_PROMPT = `The messages above are a branch of the conversation that the user has just LEFT to
continue from an earlier point. The agent will not see these messages again, only your summary.

Write a concise summary of that branch:

## Goal
- [What the branch set out to do]

## Outcome
- [What was tried, what worked, what failed, and why]

## Worth Keeping
- [Findings, decisions, file paths, and values that are still useful on the new path]

Preserve exact file paths, function names, and error messages.`;

/** The label put in front of the merged turn-prefix summary of a split turn. */
export const TURN_PREFIX_HEADING = "## Current Turn (earlier part, summarized)";

/** For a branch too big for one call: folds the next piece of the branch into the summary so far. */
export const BRANCH_SUMMARY_UPDATE_PROMPT = `The messages above continue a branch of the conversation that the user has LEFT. The
summary of the earlier messages of that branch is in <previous-summary> tags.

Extend that summary with the messages above. Keep everything it says, add what is new, and
keep its three sections (## Goal, ## Outcome, ## Worth Keeping).

Preserve exact file paths, function names, and error messages.`;
