import { WebSocketServer } from "ws";
import { type FakeApi, parseJson, sendEvent, startFakeApi } from "./fake-api.js";

/** The part of an OpenAI Responses request the checks read. */
export interface ResponsesRequest {
	model: string;
	/**
	 * The whole input the model sees: a request that names a `previous_response_id` sends only what
	 * is new, and the API puts the earlier input and output before it; the fake does the same, so this
	 * is always the whole conversation.
	 */
	input: Array<Record<string, unknown>>;
	previous_response_id?: string;
	/** Codex sends `false` to warm a WebSocket up: no answer is wanted. */
	generate?: boolean;
}

type ResponseEvent = { type: string } & Record<string, unknown>;

/**
 * Just enough of the OpenAI Responses API for Codex's built-in `openai` provider (`openai_base_url`):
 * `/v1/responses` over a WebSocket (Codex's first choice: one `response.create` text frame per request,
 * one event per frame back) and over HTTP with server-sent events (its fallback). Each request is
 * answered `answer` as one assistant message: response.created, response.output_item.done,
 * response.completed. Codex over a WebSocket first sends a warm-up (`generate: false`) holding its
 * instructions, then the turn, naming the warm-up as its `previous_response_id`.
 */
export function startResponsesApi(answer: string): Promise<FakeApi<ResponsesRequest>> {
	/** The whole conversation after each response (its input and output), by response id. */
	const conversations = new Map<string, Array<Record<string, unknown>>>();
	const received = (requests: ResponsesRequest[], sent: ResponsesRequest): ResponseEvent[] => {
		const before = sent.previous_response_id ? (conversations.get(sent.previous_response_id) ?? []) : [];
		const request = { ...sent, input: [...before, ...(sent.input ?? [])] };
		requests.push(request);
		const id = `resp_fake${requests.length}`;
		const output = request.generate === false ? [] : [answerItem(answer, id)];
		conversations.set(id, [...request.input, ...output]);
		return answerEvents(request.model, id, output);
	};
	return startFakeApi<ResponsesRequest>(
		(requests) => (request, body, response) => {
			if (request.method !== "POST" || (request.url ?? "").split("?")[0] !== "/v1/responses") return false;
			const events = received(requests, parseJson(body) as ResponsesRequest);
			response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
			for (const event of events) sendEvent(response, event);
			response.end();
			return true;
		},
		(server, requests) => {
			const sockets = new WebSocketServer({ noServer: true });
			server.on("upgrade", (request, socket, head) => {
				if ((request.url ?? "").split("?")[0] !== "/v1/responses") {
					socket.end("HTTP/1.1 404 Not Found\r\n\r\n");
					return;
				}
				sockets.handleUpgrade(request, socket, head, (ws) => {
					ws.on("message", (data) => {
						const frame = parseJson(data.toString()) as { type?: string } & ResponsesRequest;
						// Other frames (response.processed) acknowledge an answer; they ask for nothing.
						if (frame?.type !== "response.create") return;
						const { type: _create, ...sent } = frame;
						for (const event of received(requests, sent)) ws.send(JSON.stringify(event));
					});
				});
			});
			server.on("close", () => sockets.close());
		},
	);
}

function answerItem(answer: string, id: string): Record<string, unknown> {
	return {
		type: "message",
		id: id.replace("resp_", "msg_"),
		role: "assistant",
		status: "completed",
		content: [{ type: "output_text", text: answer, annotations: [] }],
	};
}

function answerEvents(model: string, id: string, output: Array<Record<string, unknown>>): ResponseEvent[] {
	const usage = {
		input_tokens: 100,
		input_tokens_details: { cached_tokens: 0 },
		output_tokens: 5,
		output_tokens_details: { reasoning_tokens: 0 },
		total_tokens: 105,
	};
	return [
		{ type: "response.created", response: { id, model } },
		...output.map((item, index) => ({ type: "response.output_item.done", output_index: index, item })),
		{ type: "response.completed", response: { id, model, usage } },
	];
}
