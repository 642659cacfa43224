// A writer process for the multi-process tests: it drives the built store (../dist) the way an
// agent process would, and prints one line per acknowledged append ("ack <seq> <i>"), so the
// parent knows exactly which records were acknowledged before it killed this process.
import { createFileStore } from "../dist/index.js";

const task = JSON.parse(process.argv[2]);
const store = createFileStore({
	home: task.home,
	durability: task.durability ?? "write",
	staleLeaseMs: task.staleLeaseMs ?? 2000,
	waitMs: 60_000,
});
const say = (line) => process.stdout.write(`${line}\n`);

function record(i) {
	return {
		recordType: "custom",
		customType: "writer",
		data: { writer: task.writer, i, pad: "p".repeat(task.pad ?? 0) },
	};
}

async function main() {
	if (task.mode === "hold") {
		const lease = await store.lease(task.id, { waitMs: 60_000 });
		say(`held ${lease.holder.pid}`);
		// Hold until the parent writes "release" (or for holdMs).
		await new Promise((resolve) => {
			if (task.holdMs !== undefined) setTimeout(resolve, task.holdMs);
			process.stdin.setEncoding("utf8").on("data", (chunk) => {
				if (chunk.includes("release")) resolve();
			});
		});
		await lease.release();
		say("released");
		process.stdin.destroy();
		return;
	}
	if (task.mode === "lease") {
		const lease = await store.lease(task.id, { waitMs: 60_000 });
		for (let i = 0; i < task.count; i++) {
			const { records } = await lease.append([record(i)]);
			say(`ack ${records[0].seq} ${i}`);
		}
		await lease.release();
	} else {
		for (let i = 0; i < task.count; i++) {
			const batch = Array.from({ length: task.batch ?? 1 }, (_, k) => record(i * (task.batch ?? 1) + k));
			const { records } = await store.append(task.id, batch);
			for (const [k, written] of records.entries()) say(`ack ${written.seq} ${i * (task.batch ?? 1) + k}`);
		}
	}
	say("done");
}

main().catch((error) => {
	process.stderr.write(`${error.stack ?? error}\n`);
	process.exit(1);
});
