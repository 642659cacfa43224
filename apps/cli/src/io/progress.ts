import cliProgress from "cli-progress";

/** A progress bar, or nothing when stderr is not a terminal. */
export interface Progress {
	/** Sets the total (it may be discovered late) and the current count. */
	update(done: number, total?: number, detail?: string): void;
	increment(detail?: string): void;
	stop(): void;
}

const SILENT: Progress = { update() {}, increment() {}, stop() {} };

/** A progress bar on stderr when stderr is a terminal; silent otherwise (pipes, files, CI logs). */
export function startProgress(
	stderr: NodeJS.WritableStream & { isTTY?: boolean },
	label: string,
	total: number,
): Progress {
	if (stderr.isTTY !== true) return SILENT;
	const bar = new cliProgress.SingleBar(
		{
			stream: stderr,
			format: `${label} [{bar}] {value}/{total} {detail}`,
			hideCursor: true,
			clearOnComplete: true,
			etaBuffer: 50,
		},
		cliProgress.Presets.shades_classic,
	);
	bar.start(total, 0, { detail: "" });
	let stopped = false;
	return {
		update(done, newTotal, detail) {
			if (newTotal !== undefined) bar.setTotal(newTotal);
			bar.update(done, { detail: detail ?? "" });
		},
		increment(detail) {
			bar.increment(1, { detail: detail ?? "" });
		},
		stop() {
			if (stopped) return;
			stopped = true;
			bar.stop();
		},
	};
}
