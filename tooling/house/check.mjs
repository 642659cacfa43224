#!/usr/bin/env node
// @ts-check
/**
 * The house checks of one package, run by its `lint` script from its folder
 * (`node ../../tooling/house/check.mjs`): no import cycle among its files, no product source file
 * over 400 lines, except what known-exceptions.mjs lists. Exits 1 with one line per problem.
 */
import { relative } from "node:path";
import { fileURLToPath } from "node:url";
import { KNOWN_CYCLES, KNOWN_LONG_FILES } from "./known-exceptions.mjs";
import { findCycles } from "./src/cycles.mjs";
import { longFiles, MAX_LINES } from "./src/long-files.mjs";
import { describe, verdict } from "./src/verdict.mjs";

const root = fileURLToPath(new URL("../../", import.meta.url));
const dir = process.argv[2] ?? process.cwd();
const pkg = relative(root, dir).split("\\").join("/");
const found = { ...(await findCycles(dir)), longFiles: longFiles(dir) };
const result = verdict(pkg, found, { cycles: KNOWN_CYCLES, longFiles: KNOWN_LONG_FILES });
const problems = describe(pkg, result, MAX_LINES, "tooling/house/known-exceptions.mjs");
for (const problem of problems) console.error(`house: ${problem}`);
process.exitCode = problems.length > 0 ? 1 : 0;
