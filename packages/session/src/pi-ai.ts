import type * as PiAi from "@mariozechner/pi-ai";

let loading: Promise<typeof PiAi> | undefined;

/**
 * pi-ai, loaded the first time a turn needs a model. Its entry point loads every provider's glue
 * and typebox (some 0.3 s of CPU): a process that opens the runtime to list, read or append never
 * pays for it.
 */
export function loadPiAi(): Promise<typeof PiAi> {
	loading ??= import("@mariozechner/pi-ai");
	return loading;
}
