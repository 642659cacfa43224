export { ACTIVE_STREAM_TYPE, UI_MESSAGE_TYPE, type UIMessageData } from "./chat-records.js";
export { createChatStore } from "./chat-store.js";
export type {
	ChatFinishEvent,
	ChatPage,
	ChatStore,
	ChatStoreOptions,
	ChatSummary,
	CreateChatOptions,
	ListChatsOptions,
	ModelRef,
	OnFinishOptions,
	SaveChatOptions,
	SaveChatResult,
} from "./chat-store-types.js";
export type { ModelMessagesOptions } from "./model-messages.js";
