import ts from "typescript";

/** A name taken from an entry point, or every name of it (a namespace passed on whole, `export *`). */
export type Taken = string | typeof EVERY;
export const EVERY = Symbol("every export");

/**
 * What one file takes from other modules: module specifier → the names it uses. Static imports,
 * re-exports, type imports (`import("x").Name`), dynamic imports and require() whose result is
 * destructured or read by property; a module object used any other way takes every name.
 */
export function namesTaken(fileName: string, text: string): Map<string, Set<Taken>> {
	const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, scriptKind(fileName));
	const taken = new Map<string, Set<Taken>>();
	const take = (specifier: string, name: Taken) => {
		const names = taken.get(specifier) ?? new Set<Taken>();
		taken.set(specifier, names);
		names.add(name);
	};
	/** Property reads of a local holding a module object (`ns.name`), or every name when it escapes. */
	const readsOf = (specifier: string, local: ts.Identifier) => {
		let escaped = false;
		const visit = (node: ts.Node): void => {
			if (ts.isIdentifier(node) && node !== local && node.text === local.text) {
				const parent = node.parent;
				if (ts.isPropertyAccessExpression(parent) && parent.expression === node) take(specifier, parent.name.text);
				else if (ts.isQualifiedName(parent) && parent.left === node) take(specifier, parent.right.text);
				else if (ts.isElementAccessExpression(parent) && ts.isStringLiteralLike(parent.argumentExpression)) {
					take(specifier, parent.argumentExpression.text);
				} else if (!notAValue(node)) escaped = true;
			}
			ts.forEachChild(node, visit);
		};
		visit(source);
		if (escaped) take(specifier, EVERY);
	};
	/** A module object's value: destructured, read by property, or held in a local. */
	const moduleValue = (specifier: string, node: ts.Expression) => {
		let at: ts.Node = node;
		while (ts.isAwaitExpression(at.parent) || ts.isParenthesizedExpression(at.parent)) at = at.parent;
		const parent = at.parent;
		if (ts.isVariableDeclaration(parent) && parent.initializer === at) {
			if (ts.isObjectBindingPattern(parent.name)) return bindings(specifier, parent.name);
			if (ts.isIdentifier(parent.name)) return readsOf(specifier, parent.name);
		}
		if (
			ts.isBinaryExpression(parent) &&
			parent.right === at &&
			parent.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
			ts.isIdentifier(parent.left)
		) {
			return readsOf(specifier, parent.left);
		}
		if (ts.isPropertyAccessExpression(parent) && parent.expression === at) {
			if (parent.name.text !== "then") return take(specifier, parent.name.text);
			const callback = ts.isCallExpression(parent.parent) ? parent.parent.arguments[0] : undefined;
			const first =
				callback && (ts.isArrowFunction(callback) || ts.isFunctionExpression(callback))
					? callback.parameters[0]
					: undefined;
			if (first && ts.isObjectBindingPattern(first.name)) return bindings(specifier, first.name);
			if (first && ts.isIdentifier(first.name)) return readsOf(specifier, first.name);
		}
		take(specifier, EVERY);
	};
	const bindings = (specifier: string, pattern: ts.ObjectBindingPattern) => {
		for (const element of pattern.elements) {
			const name = element.propertyName ?? element.name;
			if (element.dotDotDotToken || !(ts.isIdentifier(name) || ts.isStringLiteral(name))) take(specifier, EVERY);
			else take(specifier, name.text);
		}
	};
	const visit = (node: ts.Node): void => {
		if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
			const specifier = node.moduleSpecifier.text;
			const clause = node.importClause;
			if (clause?.name) take(specifier, "default");
			const bound = clause?.namedBindings;
			if (bound && ts.isNamedImports(bound)) {
				for (const element of bound.elements) take(specifier, (element.propertyName ?? element.name).text);
			} else if (bound && ts.isNamespaceImport(bound)) {
				readsOf(specifier, bound.name);
			} else if (!clause) {
				taken.set(specifier, taken.get(specifier) ?? new Set());
			}
		} else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
			const specifier = node.moduleSpecifier.text;
			const clause = node.exportClause;
			if (clause && ts.isNamedExports(clause)) {
				for (const element of clause.elements) take(specifier, (element.propertyName ?? element.name).text);
			} else {
				take(specifier, EVERY);
			}
		} else if (
			ts.isImportTypeNode(node) &&
			ts.isLiteralTypeNode(node.argument) &&
			ts.isStringLiteral(node.argument.literal)
		) {
			const specifier = node.argument.literal.text;
			const qualifier = node.qualifier;
			const holder = node.parent;
			// `let mod: typeof import("x")`: what counts is what is read from `mod`.
			if (qualifier !== undefined) take(specifier, firstName(qualifier));
			else if (ts.isVariableDeclaration(holder) && holder.type === node && ts.isIdentifier(holder.name)) {
				readsOf(specifier, holder.name);
			} else take(specifier, EVERY);
		} else if (ts.isCallExpression(node) && node.arguments.length === 1) {
			const argument = node.arguments[0] as ts.Expression;
			const isImport = node.expression.kind === ts.SyntaxKind.ImportKeyword;
			const isRequire = ts.isIdentifier(node.expression) && node.expression.text === "require";
			if ((isImport || isRequire) && ts.isStringLiteralLike(argument)) moduleValue(argument.text, node);
		}
		ts.forEachChild(node, visit);
	};
	visit(source);
	return taken;
}

/** A name that is not the local's value here: a declaration's or a property's name, or an assignment's target. */
function notAValue(node: ts.Identifier): boolean {
	const parent = node.parent;
	if (ts.isShorthandPropertyAssignment(parent)) return false;
	if ((parent as { name?: ts.Node }).name === node) return true;
	if (ts.isQualifiedName(parent) && parent.right === node) return true;
	return (
		ts.isBinaryExpression(parent) && parent.left === node && parent.operatorToken.kind === ts.SyntaxKind.EqualsToken
	);
}

function firstName(name: ts.EntityName): string {
	return ts.isIdentifier(name) ? name.text : firstName(name.left);
}

function scriptKind(fileName: string): ts.ScriptKind {
	if (/\.tsx$/.test(fileName)) return ts.ScriptKind.TSX;
	if (/\.[cm]?js$/.test(fileName)) return ts.ScriptKind.JS;
	return ts.ScriptKind.TS;
}
