import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { offlineEnv, type RunResult, run } from "./exec.js";
import { packageOf } from "./imports.js";
import { markedBlock } from "./readme.js";
import { publishedPackages, ROOT } from "./workspace.js";

/** A README program: the block after `<!-- example -->` or `<!-- example: NAME -->`. */
export interface ReadmeProgram {
	/** A file-name-safe id: the package (or "root") and the example's name. */
	id: string;
	/** The README it comes from, relative to the root. */
	readme: string;
	code: string;
	/** What it prints, when the README shows it (`<!-- example-output[: NAME] -->`). */
	output: string | undefined;
	/** The packages it imports (Node's built-ins left out). */
	imports: string[];
}

/** Every README program of the published packages and of the repository's README. */
export function readmePrograms(): ReadmeProgram[] {
	const readmes = [
		{ owner: "root", path: "README.md" },
		...publishedPackages().map((pkg) => ({ owner: pkg.name, path: join(pkg.path, "README.md") })),
	];
	return readmes.flatMap(({ owner, path }) => {
		const text = readFileSync(join(ROOT, path), "utf8");
		return [...text.matchAll(/<!-- example(?:: ([\w-]+))? -->/g)].map((match) => {
			const suffix = match[1] === undefined ? "" : `: ${match[1]}`;
			const code = markedBlock(text, `example${suffix}`) ?? "";
			const name = `${owner}${match[1] ? `-${match[1]}` : ""}`;
			return {
				id: name.replace(/^@/, "").replace(/\W+/g, "-"),
				readme: path,
				code,
				output: markedBlock(text, `example-output${suffix}`),
				imports: importedPackages(code),
			};
		});
	});
}

/** The packages a program imports, by name ("@scope/name"), without node: built-ins. */
export function importedPackages(code: string): string[] {
	const info = ts.preProcessFile(code, true, true);
	const names = info.importedFiles
		.map((file) => file.fileName)
		.filter((specifier) => !specifier.startsWith("node:") && !specifier.startsWith("."))
		.map(packageOf);
	return [...new Set(names)].sort();
}

/** A program's TypeScript as the JavaScript node runs: types erased, as ES module or CommonJS. */
export function transpile(code: string, format: "esm" | "cjs"): string {
	// As Node's module kinds (.mts / .cts): CommonJS keeps import() an import(), which require() is not.
	return ts.transpileModule(code, {
		fileName: format === "esm" ? "example.mts" : "example.cts",
		compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, verbatimModuleSyntax: false },
	}).outputText;
}

/** Packages that ship ES modules for `import` only (no `require` or `default` condition): CommonJS loads them with import(). */
const IMPORT_ONLY = new Set(["@mariozechner/pi-ai"]);

/**
 * The program as a CommonJS module: its imports stay at the top (they become require() calls),
 * the rest runs in an async function, since CommonJS has no top-level await. The values of a
 * package that only `import` can load (pi-ai) come from `await import()` there, as a CommonJS
 * program gets them; its types still come from the import.
 */
export function asCommonJs(code: string): string {
	const source = ts.createSourceFile("example.ts", code, ts.ScriptTarget.ES2022, true);
	const imports: string[] = [];
	const loads: string[] = [];
	const body: string[] = [];
	for (const statement of source.statements) {
		if (!ts.isImportDeclaration(statement)) {
			body.push(statement.getFullText(source));
			continue;
		}
		const specifier = (statement.moduleSpecifier as ts.StringLiteral).text;
		const named = statement.importClause?.namedBindings;
		if (!IMPORT_ONLY.has(specifier) || statement.importClause?.isTypeOnly || !named || !ts.isNamedImports(named)) {
			imports.push(statement.getFullText(source));
			continue;
		}
		const types = named.elements.filter((element) => element.isTypeOnly).map((element) => element.getText(source));
		const values = named.elements
			.filter((element) => !element.isTypeOnly)
			.map((element) =>
				element.propertyName ? `${element.propertyName.text}: ${element.name.text}` : element.name.text,
			);
		if (types.length > 0) imports.push(`\nimport { ${types.join(", ")} } from ${JSON.stringify(specifier)};`);
		if (values.length > 0)
			loads.push(`\n\tconst { ${values.join(", ")} } = await import(${JSON.stringify(specifier)});`);
	}
	return `${imports.join("")}\n\nasync function main(): Promise<void> {${loads.join("")}${body.join("")}\n}\n\nmain().catch((error: unknown) => {\n\tconsole.error(error);\n\tprocess.exitCode = 1;\n});\n`;
}

/**
 * Runs a README program in a consumer project as the README shows it, offline: transpiled to the
 * project's module format (CommonJS: through asCommonJs), with a home of its own and the
 * project as TMPDIR (the temporary homes the examples make go away with it).
 */
export function runProgram(project: string, program: ReadmeProgram, format: "esm" | "cjs"): Promise<RunResult> {
	const script = join(project, `readme-${program.id}.${format === "esm" ? "mjs" : "cjs"}`);
	writeFileSync(script, transpile(format === "esm" ? program.code : asCommonJs(program.code), format));
	const home = join(project, "homes", program.id);
	mkdirSync(home, { recursive: true });
	return run(process.execPath, [script], { cwd: project, env: offlineEnv({ AGENT_HOME: home, TMPDIR: project }) });
}
