import {
	AgentSessionError,
	isAgentSessionError,
	type RecordInput,
	type SessionLease,
	type SessionMetadata,
} from "@agent/session-format/reading";
import type { UIMessage } from "ai";
import { latestActiveStream, readChatLog } from "./chat-log.js";
import { activeStreamRecord } from "./chat-records.js";
import type {
	ChatFinishEvent,
	ChatStore,
	ChatStoreOptions,
	ChatSummary,
	OnFinishOptions,
	SaveChatResult,
} from "./chat-store-types.js";
import { invalidArgument, PREFIX } from "./errors.js";
import type { ReplyNotes } from "./map-message.js";
import { chatModelMessages } from "./model-messages.js";
import { modelOf, replyNotes } from "./reply-notes.js";
import { planSave, type SavePlan } from "./save-plan.js";
import { checkChatId, checkMessage, checkMessages } from "./validate.js";

/** Chat persistence for the AI SDK over any SessionStore: one session per chat. */
export function createChatStore<M extends UIMessage = UIMessage>(options: ChatStoreOptions): ChatStore<M> {
	const store = options?.store;
	if (typeof store?.lease !== "function" || typeof store.read !== "function") {
		throw invalidArgument("createChatStore needs { store }: a SessionStore such as createFileStore() or openPgStore()");
	}
	const leaseOptions = options.waitMs === undefined ? {} : { waitMs: options.waitMs };
	const underLease = async <T>(chatId: string, work: (lease: SessionLease) => Promise<T>): Promise<T> => {
		const lease = await store.lease(chatId, leaseOptions);
		try {
			return await work(lease);
		} finally {
			await lease.release();
		}
	};

	const loadChat = async (chatId: string): Promise<M[]> => {
		checkChatId(chatId, "loadChat");
		const chat = await readChatLog(store, chatId);
		return chat.entries.map((entry) => entry.data.message as M);
	};

	const save = async (
		call: string,
		chatId: string,
		messages: unknown,
		notes: ReadonlyMap<string, ReplyNotes>,
		activeStreamId: string | null | undefined,
	): Promise<SaveChatResult> => {
		checkChatId(chatId, call);
		checkMessages(messages, call);
		if (activeStreamId !== undefined) checkStreamId(activeStreamId, call);
		return underLease(chatId, async (lease) => {
			const chat = await readChatLog(store, chatId);
			const plan = planSave(chat, messages, notes);
			// The first record of a log is a root anyway; saying so would read as a branch ("new root").
			if (chat.lastSeq === 0) delete (plan.records[0] as RecordInput | undefined)?.parentSeq;
			if (activeStreamId !== undefined && activeStreamId !== chat.activeStreamId) {
				plan.records.push(activeStreamRecord(activeStreamId));
				plan.owners.push(-1);
			}
			if (plan.records.length > 0) await appendPlan(lease, plan, messages, call);
			return { written: plan.records.length, branched: plan.branched };
		});
	};

	/** The callback toUIMessageStream calls when the reply ends (onFinish in ai 5 and 6, onEnd in ai 7). */
	const onEnd = (call: string, chatId: string, finish: OnFinishOptions = {}) => {
		checkChatId(chatId, call);
		const model = modelOf(finish.model, call);
		return async (event: ChatFinishEvent<M>) => {
			const reply = event?.responseMessage;
			const notes = new Map<string, ReplyNotes>();
			if (reply?.role === "assistant") notes.set(reply.id, replyNotes(event, model));
			await save(call, chatId, event?.messages, notes, finish.activeStreamId);
		};
	};

	return {
		store,
		async createChat(create = {}) {
			const metadata = await store.create({
				...(create.name === undefined ? {} : { name: create.name }),
				...(create.identityKey === undefined ? {} : { identityKey: create.identityKey }),
			});
			return metadata.id;
		},
		loadChat,
		async saveChat(given) {
			const model = modelOf(given?.model, "saveChat");
			const notes = new Map<string, ReplyNotes>();
			if (model && Array.isArray(given.messages)) {
				for (const message of given.messages) if (message?.role === "assistant") notes.set(message.id, { model });
			}
			return save("saveChat", given?.chatId, given?.messages, notes, given?.activeStreamId);
		},
		async messagesWith(chatId, message) {
			checkChatId(chatId, "messagesWith");
			checkMessage(message, "messagesWith: message");
			const messages = await loadChat(chatId);
			const at = messages.findIndex((stored) => stored.id === message.id);
			return [...(at < 0 ? messages : messages.slice(0, at)), message];
		},
		onFinish: (chatId, finish) => onEnd("onFinish", chatId, finish),
		onEnd: (chatId, finish) => onEnd("onEnd", chatId, finish),
		async setActiveStreamId(chatId, streamId) {
			checkChatId(chatId, "setActiveStreamId");
			checkStreamId(streamId, "setActiveStreamId");
			await underLease(chatId, async (lease) => {
				if ((await latestActiveStream(store, chatId)) !== streamId) await lease.append([activeStreamRecord(streamId)]);
			});
		},
		async getActiveStreamId(chatId) {
			checkChatId(chatId, "getActiveStreamId");
			return latestActiveStream(store, chatId);
		},
		async listChats(list = {}) {
			const page = await store.list(list);
			return {
				chats: page.sessions.map(chatSummary),
				...(page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor }),
			};
		},
		async modelMessages(chatId, convert) {
			checkChatId(chatId, "modelMessages");
			return chatModelMessages(store, chatId, convert);
		},
	};
}

function checkStreamId(streamId: unknown, call: string): asserts streamId is string | null {
	if (streamId !== null && (typeof streamId !== "string" || streamId.length === 0)) {
		throw invalidArgument(`${call}: the stream id must be a non-empty string, or null to clear it`);
	}
}

/** Appends the plan; a record the store refuses is reported as the message it came from. */
async function appendPlan(lease: SessionLease, plan: SavePlan, messages: readonly UIMessage[], call: string) {
	try {
		await lease.append(plan.records);
	} catch (error) {
		const index = isAgentSessionError(error, "INVALID_RECORD") ? (error as { index?: number }).index : undefined;
		const owner = index === undefined ? -1 : (plan.owners[index] ?? -1);
		if (owner < 0) throw error;
		const id = JSON.stringify(messages[owner]?.id);
		throw new AgentSessionError(
			"INVALID_RECORD",
			`${PREFIX} ${call}: messages[${owner}] (id ${id}) cannot be stored: ${(error as Error).message}; nothing of this save was written`,
			{ cause: error },
		);
	}
}

function chatSummary(metadata: SessionMetadata): ChatSummary {
	const title = metadata.name ?? metadata.firstMessage;
	return {
		id: metadata.id,
		...(title === undefined ? {} : { title }),
		createdAt: metadata.createdAt,
		updatedAt: metadata.lastMessageAt,
		...(metadata.identityKey === undefined ? {} : { identityKey: metadata.identityKey }),
		archived: metadata.archivedAt !== undefined,
	};
}
