import { type FakeApi, parseJson, sendEvent, startFakeApi } from "./fake-api.js";

/** The part of an Anthropic Messages request the checks read. */
export interface MessagesRequest {
	model: string;
	messages: Array<{ role: "user" | "assistant"; content: string | Array<Record<string, unknown>> }>;
	stream?: boolean;
}

/**
 * Just enough of the Anthropic Messages API for Claude Code (`ANTHROPIC_BASE_URL`): `POST /v1/messages`
 * answers `answer` as one text block, streamed as server-sent events when the request asks for a
 * stream (message_start, content_block_start/delta/stop, message_delta, message_stop), else as one
 * JSON message; `POST /v1/messages/count_tokens` answers a small count.
 */
export function startAnthropicApi(answer: string): Promise<FakeApi<MessagesRequest>> {
	return startFakeApi<MessagesRequest>((requests) => (request, body, response) => {
		const path = (request.url ?? "").split("?")[0];
		if (request.method !== "POST") return false;
		if (path === "/v1/messages/count_tokens") {
			response.writeHead(200, { "content-type": "application/json" });
			response.end(JSON.stringify({ input_tokens: 100 }));
			return true;
		}
		if (path !== "/v1/messages") return false;
		const sent = parseJson(body) as MessagesRequest;
		requests.push(sent);
		const usage = { input_tokens: 100, output_tokens: 5 };
		const message = { id: `msg_fake${requests.length}`, type: "message", role: "assistant", model: sent.model };
		if (!sent.stream) {
			response.writeHead(200, { "content-type": "application/json" });
			response.end(
				JSON.stringify({
					...message,
					content: [{ type: "text", text: answer }],
					stop_reason: "end_turn",
					stop_sequence: null,
					usage,
				}),
			);
			return true;
		}
		response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
		sendEvent(response, {
			type: "message_start",
			message: { ...message, content: [], stop_reason: null, stop_sequence: null, usage },
		});
		sendEvent(response, { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } });
		sendEvent(response, { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: answer } });
		sendEvent(response, { type: "content_block_stop", index: 0 });
		sendEvent(response, {
			type: "message_delta",
			delta: { stop_reason: "end_turn", stop_sequence: null },
			usage: { output_tokens: 5 },
		});
		sendEvent(response, { type: "message_stop" });
		response.end();
		return true;
	});
}
