import { describe, expect, it } from "vitest";
import { TurnQueue } from "./turn-queue.js";

function deferred() {
	let resolve!: () => void;
	const promise = new Promise<void>((r) => {
		resolve = r;
	});
	return { promise, resolve };
}

describe("TurnQueue", () => {
	it("runs one session's work one item at a time, in FIFO order (S7.10)", async () => {
		const queue = new TurnQueue();
		const log: string[] = [];
		let running = 0;
		let maxRunning = 0;
		const work = (name: string) => async () => {
			running++;
			maxRunning = Math.max(maxRunning, running);
			log.push(`start ${name}`);
			await new Promise((resolve) => setTimeout(resolve, 5));
			log.push(`end ${name}`);
			running--;
			return name;
		};
		const results = await Promise.all(["a", "b", "c", "d"].map((name) => queue.enqueue("s1", work(name))));
		expect(results).toEqual(["a", "b", "c", "d"]);
		expect(maxRunning).toBe(1);
		expect(log).toEqual(["start a", "end a", "start b", "end b", "start c", "end c", "start d", "end d"]);
	});

	it("reports each item's position and the queue depth", async () => {
		const queue = new TurnQueue();
		const gate = deferred();
		const positions: number[] = [];
		const first = queue.enqueue(
			"s1",
			() => gate.promise,
			(p) => positions.push(p),
		);
		const second = queue.enqueue(
			"s1",
			async () => "second",
			(p) => positions.push(p),
		);
		const third = queue.enqueue(
			"s1",
			async () => "third",
			(p) => positions.push(p),
		);
		expect(positions).toEqual([0, 1, 2]);
		expect(queue.depth("s1")).toBe(3);
		gate.resolve();
		await Promise.all([first, second, third]);
		expect(queue.depth("s1")).toBe(0);
	});

	it("runs different sessions concurrently", async () => {
		const queue = new TurnQueue();
		const gate = deferred();
		const blocked = queue.enqueue("s1", () => gate.promise);
		const other = await queue.enqueue("s2", async () => "s2 ran while s1 waited");
		expect(other).toBe("s2 ran while s1 waited");
		gate.resolve();
		await blocked;
	});

	it("keeps going after a failed item and hands the failure to its caller only", async () => {
		const queue = new TurnQueue();
		const failing = queue.enqueue("s1", async () => {
			throw new Error("boom");
		});
		const next = queue.enqueue("s1", async () => "after");
		await expect(failing).rejects.toThrow("boom");
		await expect(next).resolves.toBe("after");
	});
});
