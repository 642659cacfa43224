import { createFileStore } from "@agent/session-fs";

const store = createFileStore({ home: process.argv[2] });
console.log((await store.create()).id);
