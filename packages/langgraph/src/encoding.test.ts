import { AIMessage, ToolMessage } from "@langchain/core/messages";
import { JsonPlusSerializer } from "@langchain/langgraph-checkpoint";
import { describe, expect, it } from "vitest";
import { decodeValue, encodeValue, keyOf } from "./encoding.js";

const serde = new JsonPlusSerializer();

function nested(depth: number): unknown {
	let value: unknown = "bottom";
	for (let i = 0; i < depth; i++) value = { down: value };
	return value;
}

describe("encoding values into records", () => {
	it("stores JSON inline and reads a LangChain message back as one", async () => {
		const message = new AIMessage({
			content: "hi",
			tool_calls: [{ id: "c1", name: "weather", args: { city: "Oslo" } }],
		});
		const encoded = await encodeValue(serde, message);
		expect("json" in encoded.stored).toBe(true);
		const back = (await decodeValue(serde, JSON.parse(JSON.stringify(encoded.stored)))) as AIMessage;
		expect(back).toBeInstanceOf(AIMessage);
		expect(back.tool_calls?.[0]).toMatchObject({ id: "c1", name: "weather", args: { city: "Oslo" } });
	});

	it("stores bytes as base64 and reads them back", async () => {
		const bytes = new Uint8Array([0, 1, 2, 250, 255]);
		const encoded = await encodeValue(serde, bytes);
		expect(encoded.stored).toEqual({ type: "bytes", base64: "AAEC+v8=" });
		expect(await decodeValue(serde, encoded.stored)).toEqual(bytes);
	});

	it("keeps a value nested deeper than a record may be as the serializer's text", async () => {
		const deep = nested(600);
		const encoded = await encodeValue(serde, deep);
		expect(encoded.stored).toMatchObject({ type: "json" });
		expect("text" in encoded.stored).toBe(true);
		expect(await decodeValue(serde, encoded.stored)).toEqual(deep);
	});

	it("gives a value read back the key of the live value (a property that was undefined is left out)", async () => {
		// As ToolNode makes it: artifact given, undefined.
		const live = new ToolMessage({
			content: "sunny",
			tool_call_id: "c1",
			name: "weather",
			id: "m1",
			artifact: undefined,
		});
		const encoded = await encodeValue(serde, live);
		expect(JSON.stringify(encoded.stored)).toContain('"artifact":{"lc":2,"type":"undefined"}');
		const revived = await decodeValue(serde, JSON.parse(JSON.stringify(encoded.stored)));
		const again = await encodeValue(serde, revived);
		expect(JSON.stringify(again.stored)).not.toContain("artifact");
		expect(again.key).toBe(encoded.key);
		expect(keyOf(JSON.parse(JSON.stringify(encoded.stored)))).toBe(encoded.key);
	});

	it("keeps an undefined array item in the key (its place counts)", async () => {
		const a = await encodeValue(serde, [1, undefined, 2]);
		const b = await encodeValue(serde, [1, 2]);
		expect(a.key).not.toBe(b.key);
	});
});
