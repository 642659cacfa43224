import { errnoCode } from "./errors.js";

/** Whether a process of this host with this pid exists (EPERM: it does, owned by someone else). */
export function isProcessAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return errnoCode(error) === "EPERM";
	}
}
