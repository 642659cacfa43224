import { once } from "node:events";
import fs from "node:fs";
import type { Writable } from "node:stream";
import type { ExportFormat } from "@agent/interop";
import type { StoredRecord } from "@agent/session-format";
import { Command, Option } from "commander";
import { sessionIdArgument } from "../args.js";
import type { CliContext } from "../cli-context.js";
import { type Progress, startProgress } from "../io/progress.js";

interface ExportFlags {
	format: ExportFormat;
	output?: string;
}

export function registerExport(ctx: CliContext): Command {
	return new Command("export")
		.description(
			"export a session: a Markdown transcript, one self-contained HTML page, our JSONL, or a pi v3 session file",
		)
		.argument("<id>", "session id")
		.addOption(
			new Option("--format <format>", "the output format").choices(["md", "html", "jsonl", "pi"]).makeOptionMandatory(),
		)
		.option("-o, --output <file>", "write to this file instead of stdout")
		.action(async (rawId: string, flags: ExportFlags) => {
			const id = sessionIdArgument(rawId);
			const store = await ctx.store();
			const { exportRecords } = await import("@agent/interop");
			const metadata = await store.metadata(id);
			// A bar only when the output does not go to the same terminal.
			const showProgress = flags.output !== undefined || ctx.io.stdout.isTTY !== true;
			const progress = showProgress ? startProgress(ctx.io.stderr, "export", metadata.lastSeq) : undefined;
			const chunks = exportRecords(() => counted(store.read(id), progress), metadata, flags.format);
			try {
				if (flags.output === undefined) await writeChunks(chunks, ctx.io.stdout);
				else await writeFileAtomically(flags.output, chunks);
			} finally {
				progress?.stop();
			}
			if (flags.output !== undefined) ctx.out.note(`${id} exported to ${flags.output} (${flags.format}).`);
		});
}

/** The records, ticking the progress bar (an exporter may read them more than once: each pass restarts it). */
async function* counted(
	records: AsyncIterable<StoredRecord>,
	progress: Progress | undefined,
): AsyncGenerator<StoredRecord> {
	let read = 0;
	for await (const record of records) {
		progress?.update(++read);
		yield record;
	}
}

async function writeChunks(chunks: AsyncIterable<string>, sink: Writable): Promise<void> {
	for await (const chunk of chunks) {
		if (!sink.write(chunk)) await once(sink, "drain");
	}
}

/** Writes to a temporary file beside `file` and renames it: a failed export leaves no half-written file. */
async function writeFileAtomically(file: string, chunks: AsyncIterable<string>): Promise<void> {
	const temporary = `${file}.${process.pid}.tmp`;
	const stream = fs.createWriteStream(temporary, { flags: "wx" });
	try {
		await once(stream, "open");
		await writeChunks(chunks, stream);
		stream.end();
		await once(stream, "finish");
		await fs.promises.rename(temporary, file);
	} catch (error) {
		stream.destroy();
		await fs.promises.rm(temporary, { force: true });
		throw error;
	}
}
