import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { type PackedPackage, packAll } from "../src/pack.js";
import { publishedPackages } from "../src/workspace.js";

declare module "vitest" {
	export interface ProvidedContext {
		/** Every published package, packed with `pnpm pack` (turbo built them before this runs). */
		packed: PackedPackage[];
	}
}

/** Packs every published package once for all the test files; the tarballs are removed at the end. */
export default async function setup(project: TestProject): Promise<() => void> {
	const destination = mkdtempSync(join(tmpdir(), "agent-release-packs-"));
	project.provide("packed", await packAll(publishedPackages(), destination));
	return () => rmSync(destination, { recursive: true, force: true });
}
