// A process for src/close.test.ts: uses a file store the way a script does — a held lease, a
// watch, a noted turn — and then closes it, with close() or Symbol.asyncDispose as told.
// It never calls process.exit: whether it ends is up to what the store still holds.
import { createFileStore } from "../dist/index.js";

const { home, how } = JSON.parse(process.argv[2]);
const store = createFileStore({ home });
const text = (value) => [{ type: "text", text: value }];
const { id } = await store.create({ name: "closing" });
await store.append(id, [{ recordType: "message", role: "user", content: text("hi") }]);
await store.noteAcceptedTurn(id, { turnId: "t1", acceptedAt: new Date().toISOString(), content: text("next") });
await store.watch(() => undefined);
const lease = await store.lease(id);
await lease.append([{ recordType: "message", role: "assistant", content: text("hello") }]);
if (how === "close") await store.close();
else if (how === "dispose") await store[Symbol.asyncDispose]();
process.stdout.write(`${JSON.stringify({ id })}\n`);
