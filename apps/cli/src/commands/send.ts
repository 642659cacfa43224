import { Command } from "commander";
import { sessionIdArgument } from "../args.js";
import type { CliContext } from "../cli-context.js";
import { UsageError } from "../errors.js";
import { checkModel } from "../model-option.js";
import { streamTurn } from "../stream-turn.js";

interface SendFlags {
	model?: string;
	json?: boolean;
}

export function registerSend(ctx: CliContext): Command {
	return new Command("send")
		.description("send a message to a session and print the reply as it streams in")
		.argument("<id>", "session id")
		.argument("<text>", 'the message ("-" reads it from stdin)')
		.option("--model <model>", 'the model for this turn: "provider/model-id" or "demo" (default: the session\'s)')
		.option("--json", "print { turnId, sessionId, records } once the turn is done instead of streaming")
		.action(async (rawId: string, rawText: string, flags: SendFlags) => {
			const id = sessionIdArgument(rawId);
			if (flags.model !== undefined) await checkModel(flags.model);
			const text = rawText === "-" ? await readAll(ctx.io.stdin) : rawText;
			if (text.trim() === "") throw new UsageError("the message is empty; give some text (or pipe it in with `-`)");
			const sessions = await ctx.sessions();
			await sessions.metadata(id);
			const stop = new AbortController();
			const onSignal = () => stop.abort();
			process.once("SIGINT", onSignal);
			try {
				const result = await streamTurn(ctx, sessions, id, text, {
					...(flags.model !== undefined ? { model: flags.model } : {}),
					signal: stop.signal,
					print: flags.json !== true,
				});
				if (flags.json) await ctx.out.json(result);
			} finally {
				process.off("SIGINT", onSignal);
			}
		});
}

async function readAll(input: NodeJS.ReadableStream): Promise<string> {
	input.setEncoding("utf8");
	let text = "";
	for await (const chunk of input) text += chunk;
	return text.replace(/\n$/, "");
}
