/// <reference types="node" />
/**
 * Runs a README's example as a user would: the block after `<!-- example -->` (or
 * `<!-- example: NAME -->`) is written into the package directory (so the package's own name
 * resolves to its build by self-reference), type-checked in strict mode when it is TypeScript,
 * and run with node, offline: with a temporary AGENT_HOME and TMPDIR, and no API key in its
 * environment. What it prints is compared with the block after `<!-- example-output -->`
 * (`<!-- example-output: NAME -->`). One harness for every package's readme.test.ts.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

/** The fenced block that follows `<!-- marker -->` in a README: its language and code. */
export function readmeFence(readme: string, marker: string): { lang: string; code: string } {
	const escaped = marker.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
	const match = new RegExp(`<!-- ${escaped} -->\\s*\`\`\`(\\w+)\\n([\\s\\S]*?)\`\`\``).exec(readme);
	if (!match) throw new Error(`README.md has no ${marker} block`);
	return { lang: match[1] as string, code: match[2] as string };
}

/** The code of the fenced block that follows `<!-- marker -->` in README.md. */
export function readmeBlock(readme: string, marker: string): string {
	return readmeFence(readme, marker).code;
}

/** The compiler options a user's strict TypeScript project has: ES modules on Node. */
const STRICT_OPTIONS: ts.CompilerOptions = {
	strict: true,
	noEmit: true,
	target: ts.ScriptTarget.ES2022,
	module: ts.ModuleKind.NodeNext,
	moduleResolution: ts.ModuleResolutionKind.NodeNext,
	lib: ["lib.es2023.d.ts"],
	types: ["node"],
	skipLibCheck: true,
};

/** The errors strict TypeScript finds in `file` (with its imports resolved from where it is). */
export function strictTypeErrors(file: string): string[] {
	const program = ts.createProgram([file], STRICT_OPTIONS);
	return ts
		.getPreEmitDiagnostics(program)
		.filter((diagnostic) => diagnostic.file === undefined || diagnostic.file.fileName === file)
		.map((diagnostic) => {
			const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n");
			if (!diagnostic.file || diagnostic.start === undefined) return text;
			const { line, character } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
			return `line ${line + 1}:${character + 1}: ${text}`;
		});
}

/** An example's TypeScript as the JavaScript node runs: the types erased, nothing else changed. */
export function exampleJavaScript(code: string): string {
	return ts.transpileModule(code, {
		compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, verbatimModuleSyntax: false },
	}).outputText;
}

/** The environment of an example: the caller's, without API keys or a chosen model or store. */
export function offlineEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {};
	for (const [key, value] of Object.entries(process.env)) {
		if (/(_API_KEY|_OAUTH_TOKEN)$|^AGENT_(MODEL|STORE|HOME)$/.test(key)) continue;
		env[key] = value;
	}
	return { ...env, ...extra };
}

export interface ReadmeExampleOptions {
	/** The README to read; default `<packageDir>/README.md`. */
	readme?: string;
	/** The example's name (`<!-- example: NAME -->`); default the unnamed one. */
	name?: string;
}

/** Runs an example of the package at `packageDir`; returns what it printed and what the README shows. */
export function runReadmeExample(
	packageDir: URL | string,
	options: ReadmeExampleOptions = {},
): { printed: string; expected: string | undefined } {
	const dir = typeof packageDir === "string" ? packageDir : fileURLToPath(packageDir);
	const readme = readFileSync(options.readme ?? join(dir, "README.md"), "utf8");
	const suffix = options.name === undefined ? "" : `: ${options.name}`;
	const { lang, code } = readmeFence(readme, `example${suffix}`);
	const base = join(dir, `.readme-example-${process.pid}`);
	// Anything the example puts in the temporary directory goes away with it.
	const temp = mkdtempSync(join(tmpdir(), "readme-example-"));
	try {
		let script = code;
		if (lang === "ts" || lang === "typescript") {
			writeFileSync(`${base}.ts`, code);
			const errors = strictTypeErrors(`${base}.ts`);
			if (errors.length > 0) throw new Error(`the example does not type-check in strict mode:\n${errors.join("\n")}`);
			script = exampleJavaScript(code);
		}
		writeFileSync(`${base}.mjs`, script);
		const printed = execFileSync(process.execPath, [`${base}.mjs`], {
			cwd: dir,
			encoding: "utf8",
			env: offlineEnv({ TMPDIR: temp, AGENT_HOME: join(temp, "agent-home") }),
		});
		let expected: string | undefined;
		try {
			expected = readmeBlock(readme, `example-output${suffix}`);
		} catch {
			expected = undefined;
		}
		return { printed, expected };
	} finally {
		rmSync(`${base}.ts`, { force: true });
		rmSync(`${base}.mjs`, { force: true });
		rmSync(temp, { recursive: true, force: true });
	}
}
