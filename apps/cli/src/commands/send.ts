import { Command, Option } from "commander";
import type { CliContext } from "../cli-context.js";
import { UsageError } from "../errors.js";
import { checkModel } from "../model-option.js";
import { streamTurn } from "../stream-turn.js";

interface SendFlags {
	model?: string;
	identity?: string;
	thinking?: string;
	json?: boolean;
}

const THINKING = ["off", "minimal", "low", "medium", "high", "xhigh"];

export function registerSend(ctx: CliContext): Command {
	return new Command("send")
		.description("send a message to a session and print the reply as it streams in")
		.argument("[id]", "session id (leave it out with --identity)")
		.argument("[text]", 'the message ("-" reads it from stdin)')
		.option("--model <model>", 'the model for this turn: "provider/model-id" or "demo" (default: the session\'s)')
		.option(
			"--identity <key>",
			"send to the latest session of this identity key (channel + user, agent + sender), creating one when none",
		)
		.addOption(
			new Option("--thinking <level>", "the thinking level from this turn on (pi-ai's reasoning)").choices(THINKING),
		)
		.option("--json", "print { turnId, sessionId, records } once the turn is done instead of streaming")
		.action(async (first: string | undefined, second: string | undefined, flags: SendFlags) => {
			const { rawId, rawText } = positionals(first, second, flags.identity);
			if (flags.model !== undefined) await checkModel(flags.model);
			const text = rawText === "-" ? await readAll(ctx.io.stdin) : rawText;
			if (text.trim() === "") throw new UsageError("the message is empty; give some text (or pipe it in with `-`)");
			const sessions = await ctx.sessions();
			const id =
				flags.identity !== undefined
					? await sessionOfIdentity(ctx, flags.identity, flags.model)
					: await ctx.sessionId(rawId ?? "");
			await sessions.metadata(id);
			const stop = new AbortController();
			const onSignal = () => stop.abort();
			process.once("SIGINT", onSignal);
			try {
				const result = await streamTurn(ctx, sessions, id, text, {
					...(flags.model !== undefined ? { model: flags.model } : {}),
					...(flags.thinking !== undefined ? { thinkingLevel: flags.thinking } : {}),
					signal: stop.signal,
					print: flags.json !== true,
				});
				if (flags.json) await ctx.out.json(result);
			} finally {
				process.off("SIGINT", onSignal);
			}
		});
}

/** `send ID TEXT`, or `send --identity KEY TEXT`. */
function positionals(
	first: string | undefined,
	second: string | undefined,
	identity: string | undefined,
): { rawId?: string; rawText: string } {
	if (identity !== undefined) {
		if (second !== undefined) {
			throw new UsageError("give either a session id or --identity KEY, not both: `send --identity KEY TEXT`");
		}
		if (first === undefined) throw new UsageError("missing the message: `send --identity KEY TEXT`");
		if (identity.trim() === "") throw new UsageError("--identity cannot be empty; give the identity key");
		return { rawText: first };
	}
	if (first === undefined || second === undefined) {
		throw new UsageError("give a session id and the message: `send ID TEXT` (or `send --identity KEY TEXT`)");
	}
	return { rawId: first, rawText: second };
}

/** The identity's latest session, created (and said so on stderr) when it has none. */
async function sessionOfIdentity(ctx: CliContext, identityKey: string, model: string | undefined): Promise<string> {
	const sessions = await ctx.sessions();
	const { sessionId, created } = await sessions.sessionForIdentity(identityKey, model !== undefined ? { model } : {});
	if (created) ctx.out.note(`Created session ${sessionId} for identity ${JSON.stringify(identityKey)}.`);
	return sessionId;
}

async function readAll(input: NodeJS.ReadableStream): Promise<string> {
	input.setEncoding("utf8");
	let text = "";
	for await (const chunk of input) text += chunk;
	return text.replace(/\n$/, "");
}
