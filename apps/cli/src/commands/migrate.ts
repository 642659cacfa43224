import { Command } from "commander";
import type { CliContext } from "../cli-context.js";

interface MigrateFlags {
	from: string;
	to: string;
	json?: boolean;
}

export function registerMigrate(ctx: CliContext): Command {
	return new Command("migrate")
		.description(
			"copy every session from one store to another exactly (same ids and records, compared after); run it again to resume or to check",
		)
		.requiredOption("--from <store>", "the source: a home directory, file:///path, or postgres://user@host/db")
		.requiredOption("--to <store>", "the target: a home directory, file:///path, or postgres://user@host/db")
		.option("--json", "print { sessions, copied, verified } when done")
		.action(async (flags: MigrateFlags) => {
			const { migrateStore, openStoreAt, parseStoreLocation } = await import("@agent/session");
			const from = await openStoreAt(parseStoreLocation(flags.from));
			const to = await openStoreAt(parseStoreLocation(flags.to));
			const result = await migrateStore(from, to, {
				onProgress: (progress) =>
					ctx.out.note(
						`migrate: ${progress.index}/${progress.total} ${progress.sessionId}: ${progress.copied} record(s) copied (${progress.copiedTotal} in all)`,
					),
			});
			for (const store of [from, to]) await (store as { close?: () => Promise<void> }).close?.();
			if (flags.json) await ctx.out.json(result);
			else
				ctx.out.note(
					`${result.sessions} session(s): ${result.copied} record(s) copied, ${result.verified} compared equal in both stores.`,
				);
		});
}
