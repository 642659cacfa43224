import type { Output } from "./output.js";

/**
 * Runs `work` with its stdout going through a pager when stdout is a terminal: $PAGER, else
 * `less -R`. With LESS unset it is set to FRX, so that output shorter than the screen prints as
 * is. Piped or redirected output, `PAGER=` (empty) and `PAGER=cat` write directly. Quitting the
 * pager early ends the output quietly, like a closed pipe.
 */
export async function withPager(out: Output, env: NodeJS.ProcessEnv, work: () => Promise<void>): Promise<void> {
	const command = env.PAGER ?? "less -R";
	if (!out.stdout.isTTY || command.trim() === "" || command.trim() === "cat") return work();
	const { spawn } = await import("node:child_process");
	const pager = spawn(command, {
		shell: true,
		stdio: ["pipe", "inherit", "inherit"],
		env: { ...env, LESS: env.LESS ?? "FRX" },
	});
	const exited = new Promise<void>((resolve) => {
		pager.on("error", () => resolve());
		pager.on("close", () => resolve());
	});
	pager.stdin.on("error", () => {}); // the reader quit: reported to the writes below as EPIPE
	const terminal = out.redirect(pager.stdin);
	try {
		await work();
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== "EPIPE") throw error;
	} finally {
		out.redirect(terminal);
		pager.stdin.end();
		await exited;
	}
}
