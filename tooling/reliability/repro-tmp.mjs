import { createFileStore } from "@agent/session-fs";

const [home, id] = process.argv.slice(2);
const store = createFileStore({ home, metadataFlushMs: 0 });
for (let i = 0; i < 200; i++) {
	try {
		await store.append(id, [
			{ recordType: "message", role: "user", content: [{ type: "text", text: "y".repeat(2000) }] },
		]);
	} catch (e) {
		console.log("append err", e.code);
		break;
	}
}
try {
	await store.rename(id, "x".repeat(3000));
	console.log("rename ok");
} catch (e) {
	console.log("rename err", e.code, e.message);
}
