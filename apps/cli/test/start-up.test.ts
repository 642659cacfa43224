import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { assistantBody, cleanEnv, cliAt, homeWithOneExchange, jsonl, tempHome, userBody } from "./cli-harness.js";

/**
 * What a read command loads: the store and its checks, never the LLM stack (pi-ai's entry point
 * and its typebox, the providers' SDKs) or the YAML parser when there is no config.yaml. The
 * files a run loads are the ones Node's loaders report with NODE_DEBUG=module,esm: the bundle's
 * CommonJS files, and the ES modules of the dependencies it imports.
 */
function loadedFiles(stderr: string): string[] {
	const required = [...stderr.matchAll(/^MODULE \d+: load "(\/[^"]+)" for module/gm)].map(
		(match) => match[1] as string,
	);
	const imported = [...stderr.matchAll(/Storing file:\/\/(\S+)/g)].map((match) => match[1] as string);
	return [...required, ...imported];
}

async function loadedModules(cli: ReturnType<typeof cliAt>, args: string[]): Promise<string[]> {
	const result = await cli(args, { env: cleanEnv({ NODE_DEBUG: "module,esm" }) });
	expect(result.code, result.stderr.slice(-2000)).toBe(0);
	return loadedFiles(result.stderr);
}

/** The modules each file of the bundle holds, as the build wrote them down (build.mjs). */
const bundleModules: Record<string, string[]> = JSON.parse(
	fs.readFileSync(path.join(import.meta.dirname, "..", "dist", "cli-meta.json"), "utf8"),
).modulesByFile;

/** The loaded files of the bundle that hold zod's code. */
function holdingZod(files: string[]): string[] {
	return files.filter((file) => {
		const name = file.slice(file.lastIndexOf("/dist/cli/") + "/dist/".length);
		return (bundleModules[name] ?? []).some((module) => /[\\/]zod[\\/]/.test(module));
	});
}

/** The bundle's chunk with config.yaml's parser and schema (@agent/session's config-file.ts, and yaml). */
const CONFIG_FILE = /[\\/]config-file-[^\\/]*\.cjs$/;
const LLM_STACK = /[\\/](typebox|@anthropic-ai|openai|@google)[\\/]|[\\/]pi-ai[\\/]dist[\\/]index\.js$/;

let cli: ReturnType<typeof cliAt>;
let id: string;

beforeAll(async () => {
	({ cli, id } = await homeWithOneExchange());
});

describe("what a read command loads", () => {
	it.each([
		["list", "--json"],
		["show", "ID"],
		["tail", "ID"],
		["context", "ID", "--json"],
		["stats"],
		["search", "hello"],
	])("%s: neither the LLM stack, nor the YAML parser, nor zod", async (...args) => {
		const modules = await loadedModules(
			cli,
			args.map((arg) => (arg === "ID" ? id : arg)),
		);
		// The loader's report is what this test reads: without it, it would prove nothing.
		expect(modules.some((url) => url.includes("/chunks/"))).toBe(true);
		expect(modules.filter((url) => LLM_STACK.test(url))).toEqual([]);
		expect(modules.filter((url) => CONFIG_FILE.test(url))).toEqual([]);
		expect(holdingZod(modules)).toEqual([]);
	});

	it("append loads zod, which checks what is appended (so the check above can see zod)", async () => {
		const result = await cli(["append", id], {
			input: jsonl(userBody("more")),
			env: cleanEnv({ NODE_DEBUG: "module,esm" }),
		});
		expect(result.code, result.stderr.slice(-2000)).toBe(0);
		expect(holdingZod(loadedFiles(result.stderr)).length).toBeGreaterThan(0);
	});

	it("context reads the model windows from pi-ai's registry alone, and config.yaml when there is one", async () => {
		const home = await tempHome();
		const withConfig = cliAt(home);
		const session = await withConfig.create();
		const reply = { ...assistantBody("hi"), provider: "anthropic", model: "claude-sonnet-4-5" };
		await withConfig.ok(["append", session], { input: jsonl(userBody("hello"), reply) });
		fs.writeFileSync(path.join(home, "config.yaml"), "compaction:\n  prune_tool_outputs: 100\n");
		const modules = await loadedModules(withConfig, ["context", session, "--json"]);
		expect(modules.some((url) => url.endsWith("/pi-ai/dist/models.js"))).toBe(true);
		expect(modules.some((url) => CONFIG_FILE.test(url))).toBe(true);
		expect(modules.filter((url) => LLM_STACK.test(url))).toEqual([]);
		// The windows are then in the home's cache: the next context loads nothing of pi-ai.
		expect(fs.existsSync(path.join(home, "cache", "model-windows.json"))).toBe(true);
		const again = await loadedModules(withConfig, ["context", session, "--json"]);
		// The loaders' report was read (the bundle's chunks are in it), and no pi-ai file is.
		expect(again.some((url) => url.includes("/chunks/"))).toBe(true);
		expect(again.filter((url) => url.includes("/pi-ai/"))).toEqual([]);
	});
});
