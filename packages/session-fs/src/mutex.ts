/**
 * A per-key FIFO mutex with a wait limit, shared by every store in the process (keyed by the
 * session's directory), so two writers in one process queue instead of racing for the file lock.
 * Written here because a promise chain cannot let a waiter give up after a timeout without
 * breaking the chain, and the waiters must.
 */
export interface MutexHolder {
	/** Who holds it: shown when a waiter gives up. */
	since: string;
}

interface Waiter {
	grant: () => void;
	fail: (error: unknown) => void;
}

interface Slot {
	holder: MutexHolder;
	waiters: Waiter[];
}

export class MutexTimeoutError extends Error {
	constructor(readonly holder: MutexHolder) {
		super("timed out waiting for the in-process session mutex");
	}
}

const slots = new Map<string, Slot>();

/** Waits (up to waitMs) for the key; resolves with the function that releases it. */
export function acquireMutex(key: string, waitMs: number, signal?: AbortSignal): Promise<() => void> {
	signal?.throwIfAborted();
	const holder: MutexHolder = { since: new Date().toISOString() };
	const slot = slots.get(key);
	if (!slot) {
		slots.set(key, { holder, waiters: [] });
		return Promise.resolve(releaser(key));
	}
	if (waitMs <= 0) return Promise.reject(new MutexTimeoutError(slot.holder));
	return new Promise((resolve, reject) => {
		const waiter: Waiter = {
			grant: () => {
				cleanup();
				const current = slots.get(key);
				if (current) current.holder = holder;
				resolve(releaser(key));
			},
			fail: (error) => {
				cleanup();
				const index = slot.waiters.indexOf(waiter);
				if (index >= 0) slot.waiters.splice(index, 1);
				reject(error);
			},
		};
		const timer = setTimeout(() => waiter.fail(new MutexTimeoutError(slot.holder)), waitMs);
		const onAbort = () => waiter.fail(signal?.reason);
		signal?.addEventListener("abort", onAbort, { once: true });
		const cleanup = () => {
			clearTimeout(timer);
			signal?.removeEventListener("abort", onAbort);
		};
		slot.waiters.push(waiter);
	});
}

function releaser(key: string): () => void {
	let released = false;
	return () => {
		if (released) return;
		released = true;
		const slot = slots.get(key);
		if (!slot) return;
		const next = slot.waiters.shift();
		if (next) next.grant();
		else slots.delete(key);
	};
}
