import { describe, expect, it } from "vitest";
import { userMessage, useTempStores } from "./test-home.js";

const setup = useTempStores();

describe("search of whole logs", () => {
	it("a log read after a bigger one is searched alone (the read buffer is reused, its tail is not)", async () => {
		const { store } = setup();
		const small = await store.create({ createdAt: "2024-01-01T00:00:00.000Z" });
		await store.append(small.id, [userMessage("short")]);
		const big = await store.create({ createdAt: "2024-01-02T00:00:00.000Z" });
		await store.append(big.id, [userMessage(`${"filler ".repeat(2000)}the torn tail`)]);
		// Newest first: the big log is read, then the small one into the same buffer.
		const hits = await store.search("torn tail");
		expect(hits.map((hit) => [hit.sessionId, hit.seq])).toEqual([[big.id, 1]]);
	});

	it("matches letters case-insensitively, and no other byte of a UTF-8 text as a letter", async () => {
		const { store } = setup();
		const { id } = await store.create();
		// "Ä" and "ä" are 0xC3 0x84 and 0xC3 0xA4 in UTF-8: as Latin-1, "Ã\\x84" and "Ã¤".
		await store.append(id, [userMessage("TORN Tail"), userMessage("tÄrn tail"), userMessage("torn\ntail")]);
		const hits = await store.search("torn tail");
		expect(hits.map((hit) => hit.seq)).toEqual([1, 3]);
		expect(await store.search("tärn tail")).toHaveLength(1);
	});
});
