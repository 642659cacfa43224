// The only fake in the adapter's tests: the LLM. A Model of the OpenAI Agents SDK (its model
// interface, as the SDK's own tests stub it) that answers offline and deterministically, and
// calls a tool: "weather in <city>" → reasoning and a call of the weather tool; the tool's
// result → an answer; anything else → an echo. Plain JavaScript, so child processes use it too.
import { Agent, setTracingDisabled, tool, Usage } from "@openai/agents-core";

setTracingDisabled(true);

export class FakeModel {
	/** The input of every request, in order (a copy). */
	inputs = [];
	calls = 0;

	/** @param {{ beforeAnswer?: (input: unknown) => Promise<void> | void }} [options] */
	constructor(options = {}) {
		this.beforeAnswer = options.beforeAnswer;
	}

	async getResponse(request) {
		this.inputs.push(structuredClone(request.input));
		await this.beforeAnswer?.(request.input);
		const n = ++this.calls;
		return {
			usage: new Usage({ requests: 1, inputTokens: 10, outputTokens: 5, totalTokens: 15 }),
			output: answer(request.input, n),
			responseId: `resp_${n}`,
		};
	}

	async *getStreamedResponse(request) {
		const response = await this.getResponse(request);
		yield { type: "response_started" };
		for (const item of response.output) {
			if (item.type === "message") yield { type: "output_text_delta", delta: item.content[0].text };
		}
		yield {
			type: "response_done",
			response: {
				id: response.responseId,
				usage: { requests: 1, inputTokens: 10, outputTokens: 5, totalTokens: 15 },
				output: response.output,
			},
		};
	}
}

function answer(input, n) {
	const items = typeof input === "string" ? [{ role: "user", content: input }] : input;
	const last = items[items.length - 1];
	if (last?.type === "function_call_result") {
		const output = typeof last.output === "string" ? last.output : last.output.text;
		return [message(`msg_${n}`, `The forecast: ${output}.`)];
	}
	const text = typeof last?.content === "string" ? last.content : (last?.content?.[0]?.text ?? "");
	const city = /weather in (\w+)/i.exec(text)?.[1];
	if (!city) return [message(`msg_${n}`, `You said: ${text}`)];
	return [
		{ type: "reasoning", id: `rs_${n}`, content: [{ type: "input_text", text: `Look up ${city}.` }] },
		{
			type: "function_call",
			id: `fc_${n}`,
			callId: `call_${n}`,
			name: "weather",
			arguments: JSON.stringify({ city }),
			status: "completed",
		},
	];
}

function message(id, text) {
	return { type: "message", id, role: "assistant", status: "completed", content: [{ type: "output_text", text }] };
}

/** The weather tool's options, for variants of it. */
export const weatherToolOptions = {
	name: "weather",
	description: "The weather in a city",
	parameters: {
		type: "object",
		properties: { city: { type: "string" } },
		required: ["city"],
		additionalProperties: false,
	},
	strict: true,
	execute: async ({ city }) => `sunny in ${city}`,
};

export const weatherTool = tool(weatherToolOptions);

/** The types of the items of a weather question's turn: the question, then reasoning, the call, its result, the answer. */
export const TOOL_ROUND = ["message", "reasoning", "function_call", "function_call_result", "message"];

/** An agent with the weather tool on the given model. */
export function weatherAgent(model) {
	return new Agent({ name: "forecaster", instructions: "Answer briefly.", model, tools: [weatherTool] });
}
