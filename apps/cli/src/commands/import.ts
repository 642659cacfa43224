import type { ImportFormat, ImportResult } from "@agent/interop";
import { Command, Option } from "commander";
import type { CliContext } from "../cli-context.js";
import { ReportedFailure } from "../errors.js";
import { startProgress } from "../io/progress.js";

interface ImportFlags {
	from: ImportFormat;
	json?: boolean;
}

export function registerImport(ctx: CliContext): Command {
	return new Command("import")
		.description(
			"import other agents' sessions (files, or directories searched recursively, such as ~/.claude/projects, ~/.codex/sessions, ~/.gemini/tmp, ~/.local/share/opencode, ~/.copilot/session-state); importing again returns the same ids and brings a session up to a source that grew; a file named here that is not a session fails (found in a directory, it is skipped); exits 1 when a file failed",
		)
		.argument("<paths...>", "session files (an OpenCode database holds many) or directories")
		.addOption(
			new Option("--from <format>", "the source format; auto detects it from the content")
				.choices(["auto", "pi", "codex", "claude", "gemini", "opencode", "copilot", "rfc0064", "fern"])
				.default("auto"),
		)
		.option("--json", "print [{ source, id, records, warnings, status, ... }]")
		.action(async (paths: string[], flags: ImportFlags) => {
			const store = await ctx.store();
			const { importPaths } = await import("@agent/interop");
			const progress = startProgress(ctx.io.stderr, "import", 0);
			let results: ImportResult[];
			try {
				results = await importPaths(store, paths, {
					from: flags.from,
					onProgress: (done, total, source) => progress.update(done, total, source),
				});
			} finally {
				progress.stop();
			}
			if (flags.json) await ctx.out.json(results);
			else {
				for (const result of results) for (const line of renderResult(ctx, result)) await ctx.out.line(line);
				ctx.out.note(summary(results));
			}
			if (results.some((result) => result.status === "failed")) throw new ReportedFailure("an import failed");
		});
}

function renderResult(ctx: CliContext, result: ImportResult): string[] {
	const paint = ctx.out.paint;
	const status =
		result.status === "failed"
			? paint("red", result.status)
			: result.status === "skipped"
				? paint("yellow", result.status)
				: paint("green", result.status);
	const what = result.id ? `${result.id}  ${result.records} record(s)${result.format ? `, ${result.format}` : ""}` : "";
	const gap = " ".repeat(Math.max(1, 10 - result.status.length));
	return [
		`${status}${gap}${what ? `${what}  ` : ""}${paint("gray", result.source)}`,
		...(result.error ? [paint("red", `    ${result.error}`)] : []),
		...(result.linked ?? []).map((id) => `    linked with ${id} (sub-agent and the session that spawned it)`),
		...result.warnings.map((warning) => paint("yellow", `    ${warning}`)),
	];
}

function summary(results: readonly ImportResult[]): string {
	const count = (status: ImportResult["status"]) => results.filter((result) => result.status === status).length;
	const parts = [
		`${count("imported")} imported`,
		`${count("appended")} completed`,
		`${count("unchanged")} unchanged`,
		`${count("skipped")} skipped`,
		`${count("failed")} failed`,
	];
	return `${results.length} file(s): ${parts.join(", ")}.`;
}
