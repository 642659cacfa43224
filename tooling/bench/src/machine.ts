import { execFileSync } from "node:child_process";
import { cpus, release, totalmem } from "node:os";

export interface Machine {
	cpu: string;
	cores: number;
	memoryBytes: number;
	node: string;
	os: string;
	disk: string;
	summary: string;
}

/** What the figures were measured on (the disk is the one holding the data directory). */
export function describeMachine(dataRoot: string): Machine {
	const cpu = cpus()[0]?.model.trim() ?? "unknown CPU";
	const cores = cpus().length;
	const memoryBytes = totalmem();
	let disk = "unknown";
	try {
		const lines = execFileSync("df", ["-hT", dataRoot], { encoding: "utf8" }).trim().split("\n");
		const fields = lines[lines.length - 1]?.split(/\s+/) ?? [];
		disk = `${fields[0]} (${fields[1]}, ${fields[2]}, ${fields[4]} free)`;
	} catch {
		// df is missing: the disk stays unknown
	}
	const memory = `${Math.round(memoryBytes / 2 ** 30)} GiB`;
	const node = process.version;
	const os = `${process.platform} ${release()}`;
	return {
		cpu,
		cores,
		memoryBytes,
		node,
		os,
		disk,
		summary: `${cores} cores (${cpu}), ${memory} RAM, Node ${node}, ${os}, disk ${disk}`,
	};
}
