import type { Measurement } from "../measure.js";

/**
 * Every measurement a child process can run, by name; its parameters come as JSON. Loaded on
 * demand, so a child measuring our store never loads pi (and the other way round): the memory
 * a case reports is its own.
 */
export const CASES = {
	"resume-ours": () => import("./resume-ours.js").then((m) => m.resumeOurs),
	"resume-pi": () => import("./resume-pi.js").then((m) => m.resumePi),
	"read-floor": () => import("./read-floor.js").then((m) => m.readFloor),
	"list-ours": () => import("./list-ours.js").then((m) => m.listOurs),
	"list-pi": () => import("./list-pi.js").then((m) => m.listPi),
	"append-ours": () => import("./append-ours.js").then((m) => m.appendOurs),
	"append-pi": () => import("./append-pi.js").then((m) => m.appendPi),
	"append-floor": () => import("./append-floor.js").then((m) => m.appendFloor),
	"tail-ours": () => import("./tail-ours.js").then((m) => m.tailOurs),
	"compaction-ours": () => import("./compaction-ours.js").then((m) => m.compactionOurs),
	"compaction-pi": () => import("./compaction-pi.js").then((m) => m.compactionPi),
	"dry-run-ours": () => import("./dry-run-ours.js").then((m) => m.dryRunOurs),
	"compact-ours": () => import("./compact-ours.js").then((m) => m.compactOurs),
	"cli-run": () => import("./cli-run.js").then((m) => m.cliRun),
	"search-ours": () => import("./search-ours.js").then((m) => m.searchOurs),
} satisfies Record<string, () => Promise<(params: never) => Promise<Measurement>>>;

export type CaseName = keyof typeof CASES;
export type CaseParams<N extends CaseName> = Parameters<Awaited<ReturnType<(typeof CASES)[N]>>>[0];
