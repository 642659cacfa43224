import { headOf } from "@agent/session-format/reading";
import {
	type AssistantMessage,
	type Context,
	fauxAssistantMessage,
	fauxToolCall,
	type Tool,
} from "@mariozechner/pi-ai";

/**
 * The demo model's tool use, so a team can try its ToolExecutor with no network: asked to do
 * something a tool is named for ("read package.json" with a tool `read`, or `read_file`), it calls
 * that tool, the rest of the request as its first string parameter; given the tool's result, it
 * says what came back. Deterministic: the same context gets the same call (its id aside).
 */
export function demoToolStep(context: Context, userText: string): AssistantMessage | undefined {
	const last = context.messages[context.messages.length - 1];
	if (last?.role === "toolResult") {
		const text = last.content.map((block) => (block.type === "text" ? block.text : "")).join("");
		const outcome = last.isError ? "failed" : "returned";
		return fauxAssistantMessage(`(demo model) The tool ${last.toolName} ${outcome}: ${headOf(text.trim(), 200)}`);
	}
	if (last?.role !== "user") return undefined;
	for (const tool of context.tools ?? []) {
		const rest = afterMention(userText, tool.name);
		if (rest === undefined) continue;
		return fauxAssistantMessage([fauxToolCall(tool.name, demoArguments(tool, rest))], { stopReason: "toolUse" });
	}
	return undefined;
}

/** The text after the first mention of a tool's name (as a word; `read_file` also as "read file"), or undefined. */
function afterMention(text: string, name: string): string | undefined {
	const spelled = [name, name.replace(/[_-]+/g, " ")].map((form) => form.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
	const match = new RegExp(`(?:^|[^\\p{L}\\p{N}_])(?:${spelled.join("|")})(?![\\p{L}\\p{N}_])`, "iu").exec(text);
	if (!match) return undefined;
	return text
		.slice(match.index + match[0].length)
		.trim()
		.replace(/^[:\s]+|[.!?\s]+$/g, "");
}

type PropertySchema = { type?: unknown };

/** Arguments the tool's schema asks for: its first string parameter gets `text`; the others a plain value of their type. */
function demoArguments(tool: Tool, text: string): Record<string, unknown> {
	const schema = tool.parameters as { properties?: Record<string, PropertySchema>; required?: unknown };
	const properties = Object.entries(schema.properties ?? {});
	const required = Array.isArray(schema.required) ? new Set(schema.required) : undefined;
	const args: Record<string, unknown> = {};
	let textGiven = false;
	for (const [key, property] of properties) {
		const type = property.type;
		if (type === "string" && !textGiven) {
			args[key] = text;
			textGiven = true;
		} else if (required?.has(key) ?? true) {
			args[key] = type === "number" || type === "integer" ? 0 : type === "boolean" ? false : type === "array" ? [] : "";
		}
	}
	return args;
}
