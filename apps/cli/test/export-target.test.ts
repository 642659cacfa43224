import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs/promises";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { BIN, cliAt, logPath, tempHome } from "./cli-harness.js";

let cli: ReturnType<typeof cliAt>;
let id: string;
let jsonl: string;

beforeAll(async () => {
	cli = cliAt(await tempHome());
	id = await cli.create("--model", "demo");
	await cli.ok(["send", id, "a question worth keeping"]);
	jsonl = await fs.readFile(logPath(cli.home, id), "utf8");
});

/** mknod needs root; CI runs as root. Where it is refused, the device case is covered by /dev/stdout alone. */
async function makeCharDevice(file: string): Promise<boolean> {
	try {
		execFileSync("mknod", [file, "c", "1", "3"], { stdio: "ignore" }); // the same device as /dev/null
		return true;
	} catch {
		return false;
	}
}

describe("export -o never clobbers", () => {
	it("refuses an existing file without --force and leaves it as it was; --force replaces it, keeping its mode", async () => {
		const dir = await tempHome();
		const file = path.join(dir, "notes.md");
		await fs.writeFile(file, "my own notes\n", { mode: 0o640 });
		await fs.chmod(file, 0o640);
		const refused = await cli(["export", id, "--format", "md", "-o", file]);
		expect(refused.code).toBe(2);
		expect(refused.stderr).toContain("already exists; pass --force");
		expect(await fs.readFile(file, "utf8")).toBe("my own notes\n");

		await cli.ok(["export", id, "--format", "md", "-o", file, "--force"]);
		expect(await fs.readFile(file, "utf8")).toContain("a question worth keeping");
		expect((await fs.stat(file)).mode & 0o777).toBe(0o640);
		expect(await fs.readdir(dir)).toEqual(["notes.md"]);
	});

	it("a new file is created 0600 (transcripts hold secrets), leaving no temporary file", async () => {
		const dir = await tempHome();
		const file = path.join(dir, "fresh.jsonl");
		await cli.ok(["export", id, "--format", "jsonl", "-o", file]);
		expect(await fs.readFile(file, "utf8")).toBe(jsonl);
		expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
		expect(await fs.readdir(dir)).toEqual(["fresh.jsonl"]);
	});

	it("never writes inside the store's home (sessions, config.yaml), not even with --force or through a symlink", async () => {
		const log = logPath(cli.home, id);
		const outside = await tempHome();
		const linkToLog = path.join(outside, "innocent.jsonl");
		await fs.symlink(log, linkToLog);
		const linkToDir = path.join(outside, "dir-link");
		await fs.symlink(path.dirname(log), linkToDir);
		for (const target of [
			log,
			path.join(path.dirname(log), "export.md"),
			path.join(cli.home, "sessions", "new.md"),
			path.join(cli.home, "config.yaml"),
			path.join(cli.home, "export.md"),
			linkToLog,
			path.join(linkToDir, "export.md"),
		]) {
			const result = await cli(["export", id, "--format", "md", "-o", target, "--force"]);
			expect(result.code, target).toBe(2);
			expect(result.stderr, target).toContain("inside the store's home");
		}
		expect(await fs.readFile(log, "utf8")).toBe(jsonl);
		expect((await fs.lstat(linkToLog)).isSymbolicLink()).toBe(true);
		expect((await fs.readdir(path.dirname(log))).sort()).toEqual(["metadata.json", "session.jsonl"]);
		expect((await cli.json<Array<{ ok: boolean }>>(["verify", id]))[0]?.ok).toBe(true);
	});

	it("never writes through a symbolic link: refused without --force; with it the link itself is replaced, its target untouched", async () => {
		const dir = await tempHome();
		const target = path.join(dir, "precious.txt");
		await fs.writeFile(target, "keep me\n");
		const link = path.join(dir, "link.md");
		await fs.symlink(target, link);
		const refused = await cli(["export", id, "--format", "md", "-o", link]);
		expect(refused.code).toBe(2);
		expect(refused.stderr).toContain("is a symbolic link, and an export never writes through one");
		expect((await fs.lstat(link)).isSymbolicLink()).toBe(true);

		await cli.ok(["export", id, "--format", "md", "-o", link, "--force"]);
		expect(await fs.readFile(target, "utf8")).toBe("keep me\n");
		const replaced = await fs.lstat(link);
		expect(replaced.isFile()).toBe(true);
		expect(replaced.mode & 0o777).toBe(0o600);
		expect(await fs.readFile(link, "utf8")).toContain("a question worth keeping");
	});

	it("writes straight into a FIFO, which stays a FIFO", async () => {
		const dir = await tempHome();
		const fifo = path.join(dir, "pipe");
		execFileSync("mkfifo", [fifo]);
		const reader = spawn("cat", [fifo], { stdio: ["ignore", "pipe", "inherit"] });
		let received = "";
		reader.stdout.setEncoding("utf8").on("data", (chunk: string) => {
			received += chunk;
		});
		const readerDone = new Promise((resolve) => reader.on("close", resolve));
		await cli.ok(["export", id, "--format", "jsonl", "-o", fifo]);
		await readerDone;
		expect(received).toBe(jsonl);
		expect((await fs.lstat(fifo)).isFIFO()).toBe(true);
		expect(await fs.readdir(dir)).toEqual(["pipe"]);
	});

	it("writes straight to /dev/stdout and /dev/fd/1, whatever stdout is (here a socket)", async () => {
		for (const target of ["/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"]) {
			const result = await cli(["export", id, "--format", "jsonl", "-o", target]);
			expect(result.code, target).toBe(0);
			expect(result.stdout, target).toBe(jsonl);
		}
	});

	it("-o /dev/stdout redirected by the shell to an existing file writes into that file", async () => {
		const dir = await tempHome();
		const file = path.join(dir, "redirected.jsonl");
		execFileSync("sh", [
			"-c",
			`"$0" "$@" > "${file}"`,
			process.execPath,
			BIN,
			"--home",
			cli.home,
			"export",
			id,
			"--format",
			"jsonl",
			"-o",
			"/dev/stdout",
		]);
		expect(await fs.readFile(file, "utf8")).toBe(jsonl);
		expect(await fs.readdir(dir)).toEqual(["redirected.jsonl"]);
	});

	it("writes straight to a character device, which stays a device node", async () => {
		const dir = await tempHome();
		const device = path.join(dir, "null-device");
		if (!(await makeCharDevice(device))) return;
		await cli.ok(["export", id, "--format", "md", "-o", device]);
		expect((await fs.lstat(device)).isCharacterDevice()).toBe(true);
		expect(await fs.readdir(dir)).toEqual(["null-device"]);
	});

	it("refuses a dangling symlink, a directory and a missing directory, saying what to do", async () => {
		const dir = await tempHome();
		const dangling = path.join(dir, "dangling");
		await fs.symlink(path.join(dir, "nowhere", "x.md"), dangling);
		const cases: Array<[string, string]> = [
			[dangling, "symbolic link that leads nowhere"],
			[dir, "is a directory"],
			[path.join(dir, "missing", "x.md"), "does not exist; create it first"],
		];
		for (const [target, message] of cases) {
			const result = await cli(["export", id, "--format", "md", "-o", target, "--force"]);
			expect(result.code, target).toBe(2);
			expect(result.stderr, target).toContain(message);
		}
		await expect(fs.access(path.join(dir, "nowhere"))).rejects.toThrow();
	});
});
