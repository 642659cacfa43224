import readline from "node:readline";
import { headOf, type SessionMetadata } from "@agent/session-format/reading";
import { Command } from "commander";
import type { CliContext } from "../cli-context.js";
import { ReportedFailure, UsageError } from "../errors.js";
import { filterSessions, type PickerState, renderPicker } from "../render/picker-view.js";
import { listSessions } from "../sessions-query.js";

export function registerPick(ctx: CliContext): Command {
	return new Command("pick")
		.description(
			"choose a session interactively (type to filter, arrow keys, Enter) and print its id: `agent-sessions show $(agent-sessions pick)`",
		)
		.option("--all", "offer archived sessions too")
		.action(async (flags: { all?: boolean }) => {
			const { stdin, stderr } = ctx.io;
			if (!stdin.isTTY || !stderr.isTTY) {
				throw new UsageError("pick needs a terminal to draw on; `agent-sessions list` prints the sessions instead");
			}
			const sessions = await listSessions(await ctx.readStore(), { archived: flags.all === true });
			if (sessions.length === 0) {
				ctx.out.note("No sessions to pick from (`agent-sessions create` makes one).");
				throw new ReportedFailure("no sessions", 1);
			}
			const picked = await pickInteractively(ctx, sessions);
			if (picked === undefined) {
				ctx.out.note("No session picked.");
				throw new ReportedFailure("cancelled", 1);
			}
			await ctx.out.line(picked);
		});
}

/**
 * Draws the picker on stderr (stdout carries only the chosen id, so it can be captured) and
 * reads keys from stdin in raw mode until Enter (the highlighted id) or Esc / Ctrl-C (undefined).
 */
function pickInteractively(ctx: CliContext, sessions: readonly SessionMetadata[]): Promise<string | undefined> {
	const stdin = ctx.io.stdin as NodeJS.ReadStream;
	const stderr = ctx.io.stderr as NodeJS.WriteStream;
	const state: PickerState = { filter: "", matches: [...sessions], selected: 0 };
	let drawn = 0;
	const draw = () => {
		const rows = Math.max(3, Math.min(15, (stderr.rows || 24) - 3));
		const lines = renderPicker(state, { rows, width: stderr.columns || 80, now: Date.now(), paint: ctx.out.paintErr });
		// Back to the picker's first line, clear what was drawn, draw again.
		stderr.write(`${drawn > 1 ? `\x1b[${drawn - 1}A` : ""}\r\x1b[J${lines.join("\n")}`);
		drawn = lines.length;
	};
	return new Promise((resolve) => {
		readline.emitKeypressEvents(stdin);
		stdin.setRawMode(true);
		stdin.resume();
		const finish = (id: string | undefined) => {
			stdin.off("keypress", onKey);
			stdin.setRawMode(false);
			stdin.pause();
			stderr.write(`${drawn > 1 ? `\x1b[${drawn - 1}A` : ""}\r\x1b[J`);
			resolve(id);
		};
		const onKey = (text: string | undefined, key: readline.Key | undefined) => {
			const name = key?.name;
			if ((key?.ctrl && name === "c") || name === "escape") return finish(undefined);
			if (name === "return" || name === "enter") return finish(state.matches[state.selected]?.id);
			if (name === "up" || (key?.ctrl && name === "p")) state.selected = Math.max(0, state.selected - 1);
			else if (name === "down" || (key?.ctrl && name === "n"))
				state.selected = Math.min(state.matches.length - 1, state.selected + 1);
			else if (name === "backspace")
				setFilter(headOf(state.filter, state.filter.length - 1)); // the last character, whole
			else if (text && !key?.ctrl && !key?.meta && text >= " ") setFilter(state.filter + text);
			draw();
		};
		const setFilter = (filter: string) => {
			state.filter = filter;
			state.matches = filterSessions(sessions, filter);
			state.selected = 0;
		};
		stdin.on("keypress", onKey);
		draw();
	});
}
