// A process for src/close.test.ts: uses a PostgreSQL store the way a script does — a held lease,
// a watch, an event relay, a noted turn — and then, as told, closes it (close() or
// Symbol.asyncDispose) or not. It never calls process.exit: whether it ends is up to what the
// store still holds.
import { openPgStore } from "../dist/index.js";

const { url, how } = JSON.parse(process.argv[2]);
const store = await openPgStore({ url });
const text = (value) => [{ type: "text", text: value }];
const { id } = await store.create({ name: "closing" });
await store.append(id, [{ recordType: "message", role: "user", content: text("hi") }]);
await store.noteAcceptedTurn(id, { turnId: "t1", acceptedAt: new Date().toISOString(), content: text("next") });
await store.watch(() => undefined);
await store.relayEvents({ subscribe: () => () => undefined, emit: () => undefined });
const lease = await store.lease(id);
await lease.append([{ recordType: "message", role: "assistant", content: text("hello") }]);
if (how === "close") await store.close();
else if (how === "dispose") await store[Symbol.asyncDispose]();
process.stdout.write(`${JSON.stringify({ id })}\n`);
