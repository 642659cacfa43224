import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { EVERY, namesTaken } from "./export-uses.js";
import { codeBlocks } from "./readme.js";
import { ROOT, type WorkspacePackage, workspacePackages } from "./workspace.js";

/** One entry point of a published package: `@agent/x` or `@agent/x/sub`, and its declarations. */
export interface EntryPoint {
	specifier: string;
	pkg: WorkspacePackage;
	/** Absolute path of its .d.ts (built). */
	declaration: string;
}

/** The entry points a package's exports map declares (package.json aside). */
export function entryPointsOf(pkg: WorkspacePackage): EntryPoint[] {
	return Object.entries(pkg.manifest.exports ?? {}).flatMap(([subpath, target]) => {
		const types = typeof target === "object" && target !== null ? (target as { types?: string }).types : undefined;
		if (types === undefined) return [];
		const specifier = subpath === "." ? pkg.name : `${pkg.name}/${subpath.replace(/^\.\//, "")}`;
		return [{ specifier, pkg, declaration: join(pkg.dir, types) }];
	});
}

/** What TypeScript says of the entry points: each one's exported names, and which types each export's declaration names. */
export interface ExportedApi {
	/** Entry point → its exported names, sorted. */
	names: Map<string, string[]>;
	/** Entry point → export → the other exports of that entry point its public declaration names (parameter, result, member and base types). */
	named: Map<string, Map<string, string[]>>;
}

/** The names each entry point exports (values and types), read by TypeScript from the built declarations. */
export function exportedApi(entries: readonly EntryPoint[]): ExportedApi {
	const program = ts.createProgram(
		entries.map((entry) => entry.declaration),
		{
			module: ts.ModuleKind.NodeNext,
			moduleResolution: ts.ModuleResolutionKind.NodeNext,
			noEmit: true,
			skipLibCheck: true,
			types: ["node"],
		},
	);
	const checker = program.getTypeChecker();
	const original = (symbol: ts.Symbol) =>
		symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
	const names = new Map<string, string[]>();
	const named = new Map<string, Map<string, string[]>>();
	for (const entry of entries) {
		const source = program.getSourceFile(entry.declaration);
		const module = source && checker.getSymbolAtLocation(source);
		if (!module) throw new Error(`${entry.specifier}: no declarations at ${entry.declaration} (build it first)`);
		const exported = checker.getExportsOfModule(module);
		const nameOf = new Map(exported.map((symbol) => [original(symbol), symbol.name]));
		names.set(entry.specifier, exported.map((symbol) => symbol.name).sort());
		const references = new Map<string, string[]>();
		for (const symbol of exported) {
			const found = new Set<string>();
			const visit = (node: ts.Node): void => {
				const target = ts.isTypeReferenceNode(node)
					? node.typeName
					: ts.isExpressionWithTypeArguments(node) || ts.isTypeQueryNode(node)
						? ts.isTypeQueryNode(node)
							? node.exprName
							: node.expression
						: undefined;
				const at = target && checker.getSymbolAtLocation(target);
				const name = at && nameOf.get(original(at));
				if (name !== undefined && name !== symbol.name) found.add(name);
				ts.forEachChild(node, visit);
			};
			for (const declaration of original(symbol).declarations ?? []) visit(declaration);
			references.set(symbol.name, [...found].sort());
		}
		named.set(entry.specifier, references);
	}
	return { names, named };
}

const SKIPPED = new Set(["node_modules", "dist", ".turbo", "coverage", "fixtures"]);
const CODE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;
const CODE_BLOCK = /^(ts|tsx|js|mjs|typescript|javascript)$/;

function filesUnder(dir: string, wanted: (name: string) => boolean): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const path = join(dir, entry.name);
		if (entry.isDirectory())
			return SKIPPED.has(entry.name) || entry.name.startsWith(".") ? [] : filesUnder(path, wanted);
		return wanted(entry.name) && !/\.d\.[cm]?ts$/.test(entry.name) ? [path] : [];
	});
}

/** A file of the repository that may use entry points: code (sources, tests, scripts) or a Markdown document. */
interface Reader {
	/** Path from the root. */
	path: string;
	/** What it takes: specifier → names. */
	taken: Map<string, Set<string | typeof EVERY>>;
}

/** Every file that can use the packages: their code and tests, the READMEs, docs/ (not the generated API reference). */
export function readers(): Reader[] {
	const packageDirs = workspacePackages().map((pkg) => pkg.dir);
	const code = packageDirs.flatMap((dir) => filesUnder(dir, (name) => CODE.test(name)));
	const markdown = [
		join(ROOT, "README.md"),
		...packageDirs.flatMap((dir) => filesUnder(dir, (name) => name.endsWith(".md"))),
		...filesUnder(join(ROOT, "docs"), (name) => name.endsWith(".md")).filter(
			(file) => !relative(ROOT, file).startsWith("docs/api/"),
		),
	];
	return [
		...code.map((file) => ({ path: relative(ROOT, file), taken: namesTaken(file, readFileSync(file, "utf8")) })),
		...markdown.map((file) => {
			const taken = new Map<string, Set<string | typeof EVERY>>();
			for (const block of codeBlocks(readFileSync(file, "utf8")).filter(({ lang }) => CODE_BLOCK.test(lang))) {
				for (const [specifier, names] of namesTaken(`${file}.ts`, block.code)) {
					taken.set(specifier, new Set([...(taken.get(specifier) ?? []), ...names]));
				}
			}
			return { path: relative(ROOT, file), taken };
		}),
	];
}

/**
 * A package's own product code (what it ships, tests aside) does not count as a user of its own
 * entry points: an export is needed by someone else, by a test, or by a documented example.
 */
function ownProduct(entry: EntryPoint, readerPath: string): boolean {
	const own = relative(ROOT, entry.pkg.dir);
	return (
		/^(web\/)?src\//.test(readerPath.slice(own.length + 1)) &&
		readerPath.startsWith(`${own}/`) &&
		!/\.test\.[cm]?[jt]sx?$/.test(readerPath)
	);
}

/**
 * Entry point → exported name → who uses it: the files that import it, or `named by X` when the
 * public declaration of a used export X names it (an options or result type, a base class); an
 * empty list means used by nothing.
 */
export function exportUses(
	entries: readonly EntryPoint[],
	files: readonly Reader[],
): Map<string, Map<string, string[]>> {
	const api = exportedApi(entries);
	const uses = new Map<string, Map<string, string[]>>();
	for (const entry of entries) {
		const byName = new Map((api.names.get(entry.specifier) ?? []).map((name) => [name, [] as string[]]));
		uses.set(entry.specifier, byName);
		for (const file of files) {
			const taken = file.taken.get(entry.specifier);
			if (!taken || ownProduct(entry, file.path)) continue;
			for (const [name, users] of byName) if (taken.has(name) || taken.has(EVERY)) users.push(file.path);
		}
		const named = api.named.get(entry.specifier) ?? new Map<string, string[]>();
		const pending = [...byName].filter(([, users]) => users.length > 0).map(([name]) => name);
		for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
			for (const other of named.get(name) ?? []) {
				const users = byName.get(other);
				if (!users) continue;
				if (users.length === 0) pending.push(other);
				users.push(`named by ${name}`);
			}
		}
	}
	return uses;
}

/** The exports nothing uses, as "specifier name" lines, sorted. */
export function unusedExports(uses: Map<string, Map<string, string[]>>): string[] {
	return [...uses].flatMap(([specifier, byName]) =>
		[...byName].filter(([, users]) => users.length === 0).map(([name]) => `${specifier} ${name}`),
	);
}
