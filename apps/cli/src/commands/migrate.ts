import { Command } from "commander";
import type { CliContext } from "../cli-context.js";
import { ReportedFailure } from "../errors.js";

interface MigrateFlags {
	from: string;
	to: string;
	json?: boolean;
}

export function registerMigrate(ctx: CliContext): Command {
	return new Command("migrate")
		.description(
			"copy every session from one store to another exactly (same ids and records, compared after); a session that cannot be copied is reported and skipped (exit 1); run it again to resume or to check",
		)
		.requiredOption("--from <store>", "the source: a home directory, file:///path, or postgres://user@host/db")
		.requiredOption("--to <store>", "the target: a home directory, file:///path, or postgres://user@host/db")
		.option(
			"--json",
			"print { sessions, copied, verified, failed, report: [{ sessionId, status, copied, verified, replaced?, gaps?, error? }] } when done",
		)
		.action(async (flags: MigrateFlags) => {
			const { migrateStore, openStoreAt, parseStoreLocation } = await import("@agent/session");
			const from = await openStoreAt(parseStoreLocation(flags.from));
			const to = await openStoreAt(parseStoreLocation(flags.to));
			const stop = new AbortController();
			const onSignal = () => stop.abort();
			process.once("SIGINT", onSignal);
			let result: Awaited<ReturnType<typeof migrateStore>>;
			try {
				result = await migrateStore(from, to, {
					signal: stop.signal,
					onProgress: ({ index, total, sessionId, copied, copiedTotal, session }) => {
						const where = `migrate: ${index}/${total} ${sessionId}`;
						if (session.status === "failed") {
							ctx.out.note(`${where}: NOT COPIED (${session.error?.code}): ${session.error?.message}`);
							return;
						}
						const replaced = session.replaced
							? `; ${session.replaced} stored with U+FFFD for text the target cannot hold (verify lists them)`
							: "";
						const gaps = session.gaps ? `; ${session.gaps.length} acknowledged gap(s) copied as gaps` : "";
						ctx.out.note(`${where}: ${copied} record(s) copied (${copiedTotal} in all)${replaced}${gaps}`);
					},
				});
			} finally {
				process.off("SIGINT", onSignal);
				for (const store of [from, to]) await (store as { close?: () => Promise<void> }).close?.();
			}
			if (flags.json) await ctx.out.json(result);
			else {
				ctx.out.note(
					`${result.sessions} session(s): ${result.copied} record(s) copied, ${result.verified} compared equal in both stores.`,
				);
				if (result.failed > 0) {
					ctx.out.note(
						`${result.failed} session(s) were not copied (listed above with the reason); fix each (e.g. \`agent-sessions verify --repair ID\` on the source) and run migrate again: it copies only what is missing.`,
					);
				}
			}
			if (result.failed > 0) throw new ReportedFailure(`migrate left ${result.failed} session(s) behind`);
		});
}
