import type { ReliabilityCase } from "../support/case.js";
import { concurrentWriters } from "./concurrent-writers.js";
import { diskFull } from "./disk-full.js";
import { fuzzLines } from "./fuzz-lines.js";
import { fuzzServer } from "./fuzz-server.js";
import { giantLine } from "./giant-line.js";
import { metadataCrash } from "./metadata-crash.js";
import { pgInstances } from "./pg-instances.js";
import { shutdown } from "./shutdown.js";
import { sigkillTorture } from "./sigkill-torture.js";
import { slowReaders } from "./slow-readers.js";
import { staleLocks } from "./stale-locks.js";
import { unsafeIdsCase } from "./unsafe-ids.js";

/** Every case, in the order they run. */
export const allCases: ReliabilityCase[] = [
	sigkillTorture,
	concurrentWriters,
	diskFull,
	fuzzLines,
	fuzzServer,
	unsafeIdsCase,
	staleLocks,
	metadataCrash,
	slowReaders,
	shutdown,
	giantLine,
	pgInstances,
];
