import type { Agent, Model, ModelRequest, ModelResponse, StreamEvent } from "@openai/agents-core";

export declare class FakeModel implements Model {
	inputs: unknown[];
	calls: number;
	constructor(options?: { beforeAnswer?: (input: unknown) => Promise<void> | void });
	getResponse(request: ModelRequest): Promise<ModelResponse>;
	getStreamedResponse(request: ModelRequest): AsyncIterable<StreamEvent>;
}

export declare function weatherAgent(model: Model): Agent;
