import readline from "node:readline";
import type { AgentSessions } from "@agent/session";
import { isAgentSessionError } from "@agent/session-format/reading";
import { Command } from "commander";
import type { CliContext } from "../cli-context.js";
import { errorLine } from "../errors.js";
import { checkModel } from "../model-option.js";
import { streamTurn } from "../stream-turn.js";

interface ChatFlags {
	model?: string;
}

const EXIT_WORDS = new Set(["/exit", "/quit"]);

export function registerChat(ctx: CliContext): Command {
	return new Command("chat")
		.description("talk with a session: each line you type is sent and the reply streams in (/exit or Ctrl-D leaves)")
		.argument("[id]", "session id (default: a new session, written only once the first reply comes)")
		.option("--model <model>", 'the model for this chat: "provider/model-id" or "demo" (default: the session\'s)')
		.action(async (rawId: string | undefined, flags: ChatFlags) => {
			if (flags.model !== undefined) await checkModel(flags.model);
			const sessions = await ctx.sessions();
			// A new chat is deferred: leaving before the first reply (or a failed first turn) leaves nothing on disk.
			const newSession = async () =>
				(await sessions.create({ deferred: true, ...(flags.model !== undefined ? { model: flags.model } : {}) })).id;
			const id = rawId === undefined ? await newSession() : await ctx.sessionId(rawId);
			const metadata = await sessions.metadata(id);
			const interactive = ctx.io.stdin.isTTY === true;
			const model = flags.model ?? (metadata.model || sessions.defaultModel());
			if (interactive) {
				ctx.out.note(
					ctx.out.paintErr(
						"gray",
						`Chatting in ${metadata.name ? `"${metadata.name}" ` : ""}${id} with ${model}. /exit or Ctrl-D leaves; Ctrl-C stops a reply.`,
					),
				);
			}
			await chatLoop(ctx, sessions, id, flags.model, interactive, rawId === undefined ? newSession : undefined);
		});
}

async function chatLoop(
	ctx: CliContext,
	sessions: AgentSessions,
	id: string,
	model: string | undefined,
	interactive: boolean,
	/** For a new (deferred) chat: a fresh session when a failed first turn left nothing behind. */
	renew?: () => Promise<string>,
): Promise<void> {
	let sessionId = id;
	const rl = readline.createInterface({
		input: ctx.io.stdin,
		...(interactive ? { output: ctx.io.stdout, terminal: true } : { terminal: false }),
	});
	const prompt = ctx.out.paint("cyan", "you › ");
	let turn: AbortController | undefined;
	// Ctrl-C stops the reply being streamed; at the prompt it leaves the chat. A terminal reports
	// it to readline, a pipe to the process.
	const onInterrupt = () => {
		if (turn) turn.abort();
		else rl.close();
	};
	rl.on("SIGINT", onInterrupt);
	process.on("SIGINT", onInterrupt);
	try {
		if (interactive) rl.setPrompt(prompt);
		if (interactive) rl.prompt();
		for await (const line of rl) {
			const text = line.trim();
			if (EXIT_WORDS.has(text)) break;
			if (text !== "") {
				turn = new AbortController();
				try {
					await streamTurn(ctx, sessions, sessionId, line, {
						...(model !== undefined ? { model } : {}),
						signal: turn.signal,
						print: true,
					});
				} catch (error) {
					// A failed or stopped turn does not end the chat; what was stored stays stored.
					if (!interactive || !isAgentSessionError(error)) throw error;
					ctx.out.note(
						ctx.out.paintErr("red", isAgentSessionError(error, "ABORTED") ? "(reply stopped)" : errorLine(error)),
					);
					if (renew && !(await stillThere(sessions, sessionId))) sessionId = await renew();
				} finally {
					turn = undefined;
				}
			}
			if (interactive) rl.prompt();
		}
	} finally {
		process.off("SIGINT", onInterrupt);
		rl.close();
	}
}

async function stillThere(sessions: AgentSessions, id: string): Promise<boolean> {
	try {
		await sessions.metadata(id);
		return true;
	} catch (error) {
		if (isAgentSessionError(error, "SESSION_NOT_FOUND")) return false;
		throw error;
	}
}
