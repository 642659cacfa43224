import { isAgentSessionError } from "@agent/session-format/reading";
import { UsageError } from "./errors.js";

/** Checks a --model value (no network needed); an unknown model is a usage error (exit 2). */
export async function checkModel(name: string): Promise<void> {
	const { resolveModel } = await import("@agent/session/models");
	try {
		resolveModel(name);
	} catch (error) {
		if (isAgentSessionError(error, "MODEL_NOT_FOUND")) throw new UsageError(error.message);
		throw error;
	}
}
