// A reading process for src/schemas-on-demand.test.ts: opens, reads and lists a store with the
// built package, as a fresh process does (the record schemas not loaded), and prints what it got.
import { schemaChecksLoaded } from "@agent/session-format";
import { createFileStore } from "../dist/index.js";

const { home, id } = JSON.parse(process.argv[2]);
const store = createFileStore({ home });
const before = schemaChecksLoaded();
const openProblems = [];
const opened = await store.open(id, { onProblem: (problem) => openProblems.push(problem) });
const afterOpen = schemaChecksLoaded();
const readProblems = [];
const records = [];
for await (const record of store.read(id, { onProblem: (problem) => readProblems.push(problem) })) records.push(record);
const listed = (await store.list({ archived: true })).sessions;
process.stdout.write(
	JSON.stringify({
		before,
		afterOpen,
		path: opened.path,
		context: opened.context,
		records,
		listed,
		openProblems,
		readProblems,
	}),
);
