// The only fake in the adapter's tests: the LLM, pi-ai's faux provider. A pi Agent with a tool,
// and scripted answers: a weather question → thinking and a call of the weather tool, then an
// answer with the tool's result; anything else → an echo. Plain JavaScript, so child processes
// use it too.
import { Agent } from "@mariozechner/pi-agent-core";
import { fauxAssistantMessage, fauxThinking, fauxToolCall, registerFauxProvider, Type } from "@mariozechner/pi-ai";

export const faux = registerFauxProvider({
	api: "faux-test",
	provider: "faux",
	models: [{ id: "faux-agent", contextWindow: 8000, maxTokens: 1000 }],
});

export const weatherTool = {
	name: "weather",
	label: "Weather",
	description: "The weather in a city",
	parameters: Type.Object({ city: Type.String() }),
	execute: async (_id, { city }) => ({ content: [{ type: "text", text: `sunny in ${city}` }], details: { city } }),
};

export function weatherAgent(options = {}) {
	const { initialState, ...rest } = options;
	return new Agent({
		initialState: { model: faux.getModel(), systemPrompt: "Answer briefly.", tools: [weatherTool], ...initialState },
		...rest,
	});
}

const lastText = (context) => {
	const last = context.messages[context.messages.length - 1];
	const content = typeof last.content === "string" ? [{ type: "text", text: last.content }] : last.content;
	return content.find((block) => block.type === "text")?.text ?? "";
};

/** The next turn asks for the weather in `city`: a tool round. */
export function answerWeather(city) {
	faux.appendResponses([
		fauxAssistantMessage(
			[fauxThinking(`Look up ${city}.`), fauxToolCall("weather", { city }, { id: `call_${city}` })],
			{
				stopReason: "toolUse",
			},
		),
		(context) => fauxAssistantMessage(`The forecast: ${lastText(context)}.`),
	]);
}

/** The next turn echoes the prompt; `seen` gets the messages the model was sent. */
export function answerEcho(seen) {
	faux.appendResponses([
		(context) => {
			seen?.push(context.messages);
			return fauxAssistantMessage(`You said: ${lastText(context)}`);
		},
	]);
}
