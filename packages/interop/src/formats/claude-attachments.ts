import type { ContentBlock } from "@agent/session-format";
import { text } from "../content.js";
import { isObject, stringField } from "../json-lines.js";
import { claudeUserContent } from "./claude-content.js";

/**
 * Attachment types Claude Code (2.1.x) turns into messages it sends the model, each as a user
 * message marked meta (a `<system-reminder>`). Every other type (hook progress of most events,
 * permission decisions, deferred-tool records, types it does not know) is sent as nothing.
 * Read from what the tool sends for each type; see docs/interop-formats.md.
 */
const SENT = new Set([
	"agent_listing_delta",
	"agent_mention",
	"async_hook_response",
	"auto_mode",
	"auto_mode_exit",
	"budget_usd",
	"companion_intro",
	"compact_file_reference",
	"compaction_reminder",
	"critical_system_reminder",
	"date_change",
	"deferred_tools_delta",
	"diagnostics",
	"directory",
	"edited_text_file",
	"file",
	"hook_additional_context",
	"hook_blocking_error",
	"hook_stopped_continuation",
	"hook_success",
	"invoked_skills",
	"mcp_instructions_delta",
	"mcp_resource",
	"nested_memory",
	"opened_file_in_ide",
	"output_style",
	"output_token_usage",
	"pdf_reference",
	"plan_file_reference",
	"plan_mode",
	"plan_mode_exit",
	"plan_mode_reentry",
	"queued_command",
	"relevant_memories",
	"selected_lines_in_ide",
	"skill_listing",
	"task_reminder",
	"task_status",
	"team_context",
	"teammate_mailbox",
	"todo_reminder",
	"token_usage",
	"ultrathink_effort",
	"verify_plan_reminder",
]);

/** What an attachment line becomes: a prompt the user typed, context sent to the model, or data kept aside. */
export type AttachmentKind =
	| { kind: "prompt"; content: ContentBlock[] }
	| { kind: "context"; content: ContentBlock[] }
	| { kind: "kept" };

/**
 * Classifies an `attachment` line's body. A queued prompt (typed while the agent worked) is the
 * user's own message; a queued task notification or meta prompt, and the other sent types, are
 * context (a custom message the LLM sees); the rest is kept as data only.
 */
export function classifyAttachment(attachment: unknown): AttachmentKind {
	if (!isObject(attachment)) return { kind: "kept" };
	const type = stringField(attachment, "type") ?? "";
	if (!SENT.has(type) || isEmpty(type, attachment)) return { kind: "kept" };
	if (type === "queued_command") {
		const content = claudeUserContent(attachment.prompt ?? "").blocks;
		const meta =
			attachment.isMeta === true || attachment.origin !== undefined || attachment.commandMode === "task-notification";
		return { kind: meta ? "context" : "prompt", content };
	}
	return { kind: "context", content: [text(`[${type}] ${attachmentText(attachment)}`)] };
}

/** The types Claude Code sends only when they carry something (an empty hook output or skill list is sent as nothing). */
function isEmpty(type: string, attachment: Record<string, unknown>): boolean {
	switch (type) {
		case "hook_success":
			return (
				(attachment.hookEvent !== "SessionStart" && attachment.hookEvent !== "UserPromptSubmit") ||
				!hasText(attachment.content)
			);
		case "hook_additional_context":
		case "skill_listing":
			return !hasText(attachment.content);
		case "invoked_skills":
			return !Array.isArray(attachment.skills) || attachment.skills.length === 0;
		case "diagnostics":
			return !Array.isArray(attachment.files) || attachment.files.length === 0;
		default:
			return false;
	}
}

function hasText(value: unknown): boolean {
	if (typeof value === "string") return value !== "";
	return Array.isArray(value) && value.length > 0;
}

/** Fields that carry an attachment's substance, in the order they are looked for. */
const TEXT_FIELDS = ["content", "snippet", "planContent", "prompt", "message", "text"] as const;

/**
 * The attachment's substance as text: its file or path, then the first text field it has
 * (a file attachment's file content), else its fields as JSON. Our wording, not Claude Code's:
 * the model gets the same facts.
 */
export function attachmentText(attachment: Record<string, unknown>): string {
	const where = stringField(attachment, "filename") ?? stringField(attachment, "path");
	for (const field of TEXT_FIELDS) {
		const value = textOf(attachment[field]);
		if (value) return where ? `${where}\n${value}` : value;
	}
	const { type: _type, ...rest } = attachment;
	return JSON.stringify(rest);
}

function textOf(value: unknown): string | undefined {
	if (typeof value === "string") return value;
	if (Array.isArray(value) && value.every((item) => typeof item === "string")) return value.join("\n");
	if (!isObject(value)) return undefined;
	// A file attachment nests its content: {type: "text", file: {filePath, content}}.
	const file = isObject(value.file) ? value.file : value;
	return typeof file.content === "string" ? file.content : undefined;
}
