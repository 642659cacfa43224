import type { ListOptions, SessionStore } from "@agent/session-format/reading";
import type { ModelMessage, UIMessage } from "ai";
import type { ModelMessagesOptions } from "./model-messages.js";

export interface ChatStoreOptions {
	/** Any SessionStore: `createFileStore()` from @agent/session-fs, `openPgStore()` from @agent/session-pg. */
	store: SessionStore;
	/** How long a write waits for another writer of the same chat, in ms (default: the store's, 10 000). */
	waitMs?: number;
}

export interface CreateChatOptions {
	/** The chat's title (listings show the first user message until it has one). */
	name?: string;
	/** Whose chat it is (e.g. "user:42"): listChats({ identityKey }) lists theirs. */
	identityKey?: string;
}

/** The model that wrote a reply: "provider/model-id", or an AI SDK model (its provider and modelId). */
export type ModelRef = string | { readonly provider: string; readonly modelId: string };

export interface SaveChatOptions<M extends UIMessage = UIMessage> {
	chatId: string;
	/** The chat's messages as they are now (the active path becomes exactly these). */
	messages: M[];
	/** Sets (a string) or clears (null) the chat's active stream in the same write. */
	activeStreamId?: string | null;
	/** Recorded on the replies this save writes. */
	model?: ModelRef;
}

export interface SaveChatResult {
	/** Records appended (0: the chat was saved as it is already). */
	written: number;
	/** True when the active path now leaves earlier messages aside (a regenerate, an edit, fewer messages). */
	branched: boolean;
}

/** What toUIMessageStream gives its onFinish (ai 5 and 6) or onEnd (ai 7). */
export interface ChatFinishEvent<M extends UIMessage = UIMessage> {
	messages: M[];
	responseMessage?: M;
	isAborted?: boolean;
	/** ai 7: the consumer cancelled the stream (the client went away) before the reply ended. */
	isCancelled?: boolean;
	outcome?: { status: string; error?: unknown };
	finishReason?: string;
}

export interface OnFinishOptions {
	/** Recorded on the reply. */
	model?: ModelRef;
	/** Sets or clears (null) the chat's active stream in the same write, e.g. null when a resumable stream ends. */
	activeStreamId?: string | null;
}

export interface ListChatsOptions
	extends Pick<ListOptions, "identityKey" | "search" | "archived" | "limit" | "cursor"> {}

export interface ChatSummary {
	id: string;
	/** Its name, else its first user message. */
	title?: string;
	createdAt: string;
	/** When it was last written. */
	updatedAt: string;
	identityKey?: string;
	archived: boolean;
}

export interface ChatPage {
	/** Most recently written first. */
	chats: ChatSummary[];
	/** Pass as `cursor` for the next page; absent on the last. */
	nextCursor?: string;
}

export interface ChatStore<M extends UIMessage = UIMessage> {
	readonly store: SessionStore;
	/** A new, empty chat; its id is the session's. */
	createChat(options?: CreateChatOptions): Promise<string>;
	/** The chat's messages along its active path, exactly as saved. */
	loadChat(chatId: string): Promise<M[]>;
	/** Makes `messages` the chat's active path, appending only what is new (see the README). */
	saveChat(options: SaveChatOptions<M>): Promise<SaveChatResult>;
	/**
	 * The chat's messages with `message` last: appended, or, when the chat has a message with its
	 * id (a regenerate or an edit), in that one's place with the messages after it left out.
	 */
	messagesWith(chatId: string, message: M): Promise<M[]>;
	/** An onFinish for toUIMessageStream (and toUIMessageStreamResponse): saves the reply, aborted or not. */
	onFinish(chatId: string, options?: OnFinishOptions): (event: ChatFinishEvent<M>) => Promise<void>;
	/** The same callback under ai 7's name for it (`toUIMessageStream({ onEnd })`). */
	onEnd(chatId: string, options?: OnFinishOptions): (event: ChatFinishEvent<M>) => Promise<void>;
	setActiveStreamId(chatId: string, streamId: string | null): Promise<void>;
	getActiveStreamId(chatId: string): Promise<string | null>;
	listChats(options?: ListChatsOptions): Promise<ChatPage>;
	/** The messages to send the model: the chat's context (a compaction's summary and what it kept) via convertToModelMessages. */
	modelMessages(chatId: string, options?: ModelMessagesOptions): Promise<ModelMessage[]>;
}
