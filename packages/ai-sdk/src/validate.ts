import type { UIMessage } from "ai";
import { invalidArgument } from "./errors.js";

const ROLES = new Set(["system", "user", "assistant"]);

/** Checks that `messages` are UIMessages with ids of their own; the error names the message and field. */
export function checkMessages(messages: unknown, call: string): asserts messages is UIMessage[] {
	if (!Array.isArray(messages)) {
		throw invalidArgument(
			`${call}: messages must be an array of UIMessages (e.g. the messages onFinish gets), got ${kind(messages)}`,
		);
	}
	const seen = new Map<string, number>();
	messages.forEach((message: unknown, index) => {
		const at = `${call}: messages[${index}]`;
		checkMessage(message, at);
		const earlier = seen.get(message.id);
		if (earlier !== undefined) {
			throw invalidArgument(
				`${at}.id ${JSON.stringify(message.id)} is also the id of messages[${earlier}]; every message of a chat needs its own id (pass originalMessages to toUIMessageStream so a reply reuses the right one)`,
			);
		}
		seen.set(message.id, index);
	});
}

/** Checks one UIMessage; `at` names it in the error ("saveChat: messages[2]"). */
export function checkMessage(message: unknown, at: string): asserts message is UIMessage {
	if (typeof message !== "object" || message === null || Array.isArray(message)) {
		throw invalidArgument(`${at} must be a UIMessage object, got ${kind(message)}`);
	}
	const { id, role, parts } = message as Partial<Record<keyof UIMessage, unknown>>;
	if (typeof id !== "string" || id.length === 0) {
		throw invalidArgument(
			`${at}.id must be a non-empty string, got ${kind(id)}; give replies ids (toUIMessageStream's originalMessages and generateMessageId)`,
		);
	}
	if (typeof role !== "string" || !ROLES.has(role)) {
		throw invalidArgument(`${at}.role must be "user", "assistant" or "system", got ${kind(role)}`);
	}
	if (!Array.isArray(parts) || parts.some((part) => typeof part?.type !== "string")) {
		throw invalidArgument(`${at}.parts must be an array of parts, each with a string type`);
	}
}

/** Checks a chat id's type (the store checks its form). */
export function checkChatId(chatId: unknown, call: string): asserts chatId is string {
	if (typeof chatId !== "string" || chatId.length === 0) {
		throw invalidArgument(`${call}: chatId must be the id createChat returned, got ${kind(chatId)}`);
	}
}

function kind(value: unknown): string {
	if (value === null) return "null";
	if (Array.isArray(value)) return "an array";
	if (typeof value === "string") {
		// Cut on whole code points: half an emoji would be a lone surrogate.
		const chars = Array.from(value);
		return JSON.stringify(chars.length > 40 ? `${chars.slice(0, 40).join("")}…` : value);
	}
	return typeof value;
}
