#!/usr/bin/env node
/**
 * The main job: until the server exists, a short CLI demo on a temporary store.
 * (The server issue replaces this with agent-sessions-server on the default store.)
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const home = fs.mkdtempSync(path.join(os.tmpdir(), "agent-sessions-demo-"));
const format = await import("../../packages/session-format/dist/index.js");
const id = format.newSessionId();
console.log(`demo store: ${home}`);
console.log(`a new session id: ${id}`);
